package terminal

import (
	"regexp"
	"strconv"

	"github.com/packterm/pos/device/retail"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/journal"
	"github.com/packterm/pos/validate/ledger"
)

// floorReplay bounds how many install records of a kind the start reads back.
const floorReplay = 256

// installedVersion reads "version N" in a status-install record's Detail, as the daemon
// writes it ("version 2, was 1 (fleet)", "status installed: version 2 (maintenance link)").
var installedVersion = regexp.MustCompile(`\bversion (\d{1,20})\b`)

// statusFloor is the newest pack status list version the journal says was installed here;
// had is false when none ever was.
func (t *Terminal) statusFloor() (floor uint64, had bool, err error) {
	read := 0
	err = t.data.Journal.Latest(journal.KindStatusInstall, func(r journal.Record) bool {
		read++
		had = true
		if m := installedVersion.FindStringSubmatch(r.Detail); m != nil {
			if v, err := strconv.ParseUint(m[1], 10, 64); err == nil {
				floor = max(floor, v)
			}
		}
		return read < floorReplay
	})
	return floor, had, err
}

// checkStatusList refuses, at start, a pack status list older than the newest the journal
// says was installed (the retailer put an older signed file back), or none at all on a
// terminal that had one (the file removed: the void and stolen packs would no longer be
// checked). Then t.statusRefused holds: STATUS REFUSED at rest, and every code scanned is
// refused before it is judged (dataGate), until a technician installs the list again.
func (t *Terminal) checkStatusList() {
	floor, had, err := t.statusFloor()
	if err != nil {
		if t.data.Journal.Missing() == nil {
			t.log.Error("terminal: status list installs not read back from the journal", "err", err)
		}
		return // an unreadable journal pays nothing anyway
	}
	if !had {
		return
	}
	sl, ok := t.data.Status.(*ledger.StatusList)
	switch {
	case !ok:
		t.log.Error("terminal: no pack status list, but the journal says one was installed: nothing is judged or sold until it is installed again",
			"newest_installed", floor)
	case sl.Version < floor:
		t.log.Error("terminal: pack status list older than the newest installed: refused, nothing is judged or sold until it is installed again",
			"version", sl.Version, "newest_installed", floor)
	default:
		return
	}
	t.statusRefused = true
}

// installedLedger reads a ledger-install record's Detail, as the maintenance link writes
// it: "ledger installed: block 7, version 2 (was 1)".
var installedLedger = regexp.MustCompile(`\bblock (\d{1,5}), version (\d{1,20})\b`)

// checkLedgers refuses, at start, each block whose installed ledger is older than the
// newest the journal says was installed for it (the retailer put an older signed file
// back): t.ledgerRefused holds those blocks, and a code of one is refused before it is
// judged (dataGate). A block whose ledger is gone needs no floor: its codes are refused
// as of an unknown block.
func (t *Terminal) checkLedgers() {
	floors := map[uint16]uint64{}
	read := 0
	err := t.data.Journal.Latest(journal.KindLedgerInstall, func(r journal.Record) bool {
		read++
		if m := installedLedger.FindStringSubmatch(r.Detail); m != nil {
			b, errB := strconv.ParseUint(m[1], 10, 16)
			v, errV := strconv.ParseUint(m[2], 10, 64)
			if errB == nil && errV == nil {
				floors[uint16(b)] = max(floors[uint16(b)], v)
			}
		}
		return read < floorReplay
	})
	if err != nil {
		if t.data.Journal.Missing() == nil {
			t.log.Error("terminal: ledger installs not read back from the journal", "err", err)
		}
		return
	}
	for b, floor := range floors {
		l := t.data.Ledgers.Get(b)
		if l == nil || l.Header().Version >= floor {
			continue
		}
		t.log.Error("terminal: ledger older than the newest installed: its block is refused until it is installed again",
			"block", b, "version", l.Header().Version, "newest_installed", floor)
		if t.ledgerRefused == nil {
			t.ledgerRefused = map[uint16]bool{}
		}
		t.ledgerRefused[b] = true
	}
}

// installedKeys reads the config-change record of an operator key statement installed over
// the maintenance link: "keys: operator keys installed: statement version 2 (was 1), …".
var installedKeys = regexp.MustCompile(`\boperator keys installed: statement version (\d{1,20})\b`)

// checkKeyStatement refuses, at start, an operator key statement older than the newest the
// journal says was installed, or none (the image's anchor keys) after one was: the
// retailer put an older statement back, or removed it, to bring a retired key back into
// trust. Then t.keysRefused holds: DONNÉES REFUSÉES at rest, and every code is refused
// before it is judged (dataGate), until the statement is installed again.
func (t *Terminal) checkKeyStatement() {
	t.keysRefused = t.statementBelowFloor(installedKeys, t.data.KeyStatement, "operator key statement")
}

// installedFirmwareKeys reads the config-change record of a firmware key statement
// installed over the maintenance link: "keys: firmware keys installed: statement version
// 2 (was 1); in force at the next start".
var installedFirmwareKeys = regexp.MustCompile(`\bfirmware keys installed: statement version (\d{1,20})\b`)

// checkFirmwareKeyStatement refuses, at start, a firmware key statement (ROOT/
// firmware-keys.stmt) older than the newest the journal says was installed, or none (the
// image's [keys] firmware anchors) after one was: the retailer or a technician put an
// older statement back, or removed it, to bring a retired firmware key back into trust
// (firmware it signed would be flashed, and booted, again). Then t.firmwareKeysRefused
// holds: DONNÉES REFUSÉES at rest, and every code is refused before it is judged
// (dataGate), until the statement is installed again.
func (t *Terminal) checkFirmwareKeyStatement() {
	t.firmwareKeysRefused = t.statementBelowFloor(installedFirmwareKeys, t.data.FirmwareKeyStatement, "firmware key statement")
}

// statementBelowFloor says whether the statement of version have (0: none) is older than
// the newest the journal's config-change records say was installed (re reads their
// version), and logs it. A journal that cannot be read back refuses nothing here: an
// unreadable journal pays nothing anyway.
func (t *Terminal) statementBelowFloor(re *regexp.Regexp, have uint64, what string) bool {
	floor, err := t.configFloor(re)
	if err != nil {
		if t.data.Journal.Missing() == nil {
			t.log.Error("terminal: "+what+" installs not read back from the journal", "err", err)
		}
		return false
	}
	if have >= floor {
		return false
	}
	t.log.Error("terminal: "+what+" older than the newest installed (or gone): nothing is judged or paid until it is installed again",
		"version", have, "newest_installed", floor)
	return true
}

// configFloor is the highest version re finds (its first group) in the latest
// config-change records: the newest statement of its kind installed here (0: none).
func (t *Terminal) configFloor(re *regexp.Regexp) (uint64, error) {
	var floor uint64
	read := 0
	err := t.data.Journal.Latest(journal.KindConfigChange, func(r journal.Record) bool {
		read++
		if m := re.FindStringSubmatch(r.Detail); m != nil {
			if v, err := strconv.ParseUint(m[1], 10, 64); err == nil {
				floor = max(floor, v)
			}
		}
		return read < floorReplay
	})
	return floor, err
}

// installedLimits reads the config-change record of an operator limits statement
// installed over the maintenance link: "keys: operator limits installed: statement
// version 3 (was 2), for …".
var installedLimits = regexp.MustCompile(`\boperator limits installed: statement version (\d{1,20})\b`)

// checkLimitsStatement refuses, at start, an operator limits statement older than the
// newest the journal says was installed, or none (the configuration's [limits]) after one
// was: the retailer put back a statement with higher limits, or removed the one that
// lowered them. Then t.limitsRefused holds: DONNÉES REFUSÉES at rest, and every code is
// refused before it is judged (dataGate), until the statement is installed again. Fail
// closed: the limits in force are never guessed at.
func (t *Terminal) checkLimitsStatement() {
	t.limitsRefused = t.statementBelowFloor(installedLimits, t.data.LimitsStatement, "operator limits statement")
}

// dataGate answers a code scanned while the operator or firmware keys, the operator
// limits or the pack status list are refused, or whose block's ledger is: journalled
// (refused, reason keys-refused, firmware-keys-refused, limits-refused, status-refused or
// ledger-refused, the ticket or pack), nothing judged.
func (t *Terminal) dataGate(id codes.TicketID) State {
	var res result
	switch {
	case t.keysRefused:
		res = result{"keys-refused", retail.DataRefusedScreen(), retail.SignalRefused}
	case t.firmwareKeysRefused:
		res = result{"firmware-keys-refused", retail.DataRefusedScreen(), retail.SignalRefused}
	case t.limitsRefused:
		res = result{"limits-refused", retail.DataRefusedScreen(), retail.SignalRefused}
	case t.statusRefused:
		res = result{"status-refused", retail.StatusRefusedScreen(), retail.SignalRefused}
	case t.ledgerRefused[id.Block]:
		res = result{"ledger-refused", retail.LedgerRefusedScreen(id.Block), retail.SignalRefused}
	default:
		return nil
	}
	e := journal.Entry{Kind: journal.KindRefused, Reason: res.name, Ticket: id}
	whole := id // a pack (position 0) is checked as its first ticket
	whole.Position = max(whole.Position, 1)
	if whole.Validate() != nil {
		e.Ticket = codes.TicketID{}
	}
	if _, err := t.recordTrace(e); err != nil {
		t.log.Error("terminal: journal refusal", "err", err)
	}
	return res
}
