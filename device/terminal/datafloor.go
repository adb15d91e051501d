package terminal

import (
	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/device/floors"
	"github.com/packterm/pos/device/retail"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/journal"
	"github.com/packterm/pos/validate/ledger"
)

// floorReplay bounds how many install records of a kind the start reads back.
const floorReplay = 256

// journalFloors are the newest versions the journal's install records say were installed
// here (floors.Floors reads them: status-install, ledger-install, and the config-change
// records of the statements installed over the maintenance link).
func (t *Terminal) journalFloors() (floors.Floors, error) {
	var f floors.Floors
	for _, kind := range floors.Kinds {
		read := 0
		err := t.data.Journal.Latest(kind, func(r journal.Record) bool {
			read++
			f.Add(r.Kind, r.Detail)
			return read < floorReplay
		})
		if err != nil {
			return f, err
		}
	}
	return f, nil
}

// fleetFloors are the floors the fleet found in the install records this terminal
// published (fleet.Floored; none without a fleet, or before its first answer).
func (t *Terminal) fleetFloors() floors.Floors {
	if f, ok := t.data.Fleet.(fleet.Floored); ok {
		return f.InstallFloors()
	}
	return floors.Floors{}
}

// checkFloors refuses, at start, the installed data older than the newest version the
// journal's install records name, or than the fleet's (fleetFloors: what the terminal
// published, which holds a journal put back with its files from an earlier copy). An
// unreadable journal is held to the fleet's floors alone (it pays nothing anyway).
func (t *Terminal) checkFloors() {
	f, err := t.journalFloors()
	if err != nil && t.data.Journal.Missing() == nil {
		t.log.Error("terminal: installs not read back from the journal", "err", err)
	}
	if err != nil {
		f = floors.Floors{}
	}
	t.floors = f
	t.fleetSeen = t.fleetFloors()
	f.Raise(t.fleetSeen)
	t.holdTo(f)
}

// raiseFleetFloors takes in the fleet's floors when they went up since last seen (the
// client asks them at every connection): the data they make older is refused from now
// on. It reports whether anything more is refused.
func (t *Terminal) raiseFleetFloors() bool {
	ff := t.fleetFloors()
	if ff.Equal(t.fleetSeen) {
		return false
	}
	t.fleetSeen = ff
	f := t.floors.Clone()
	f.Raise(ff)
	was := t.refusedCount()
	t.holdTo(f)
	return t.refusedCount() > was
}

// refusedCount is how many of the floors' refusals hold.
func (t *Terminal) refusedCount() int {
	n := len(t.ledgerRefused)
	for _, b := range []bool{t.statusRefused, t.keysRefused, t.limitsRefused, t.firmwareKeysRefused} {
		if b {
			n++
		}
	}
	return n
}

// holdTo refuses what is older than f; a refusal once made holds until the restart that
// an install brings.
//
// The pack status list: older than f's, or none at all on a terminal that has had one
// (the file removed, which skips the void and stolen check), holds t.statusRefused: STATUS
// REFUSED at rest, and every code scanned refused before it is judged (dataGate).
//
// Ledgers: each block whose ledger is older than its floor is in t.ledgerRefused (a code
// of one is refused before it is judged); a block whose ledger is gone needs no floor
// (its codes are refused as of an unknown block).
//
// The operator key statement, the operator limits statement and the firmware key
// statement (ROOT/firmware-keys.stmt): older than their floor, or none (the image's
// anchor keys, the configuration's [limits]) after one was installed — put back or
// removed to bring a retired key back into trust, or higher limits back — hold
// t.keysRefused, t.limitsRefused, t.firmwareKeysRefused: DONNÉES REFUSÉES at rest, and
// every code refused before it is judged, until the statement is installed again. Fail
// closed: what is in force is never guessed at.
func (t *Terminal) holdTo(f floors.Floors) {
	if f.HadStatus {
		t.statusRefused = t.statusRefused || t.statusBelow(f.Status)
	}
	for b, floor := range f.Ledgers {
		l := t.data.Ledgers.Get(b)
		if l == nil || l.Header().Version >= floor || t.ledgerRefused[b] {
			continue
		}
		t.log.Error("terminal: ledger older than the newest installed: its block is refused until it is installed again",
			"block", b, "version", l.Header().Version, "newest_installed", floor)
		if t.ledgerRefused == nil {
			t.ledgerRefused = map[uint16]bool{}
		}
		t.ledgerRefused[b] = true
	}
	t.keysRefused = t.keysRefused || t.statementBelow(t.data.KeyStatement, f.OperatorKeys, "operator key statement")
	t.limitsRefused = t.limitsRefused || t.statementBelow(t.data.LimitsStatement, f.Limits, "operator limits statement")
	t.firmwareKeysRefused = t.firmwareKeysRefused ||
		t.statementBelow(t.data.FirmwareKeyStatement, f.FirmwareKeys, "firmware key statement")
}

// statusBelow says whether the pack status list is older than floor, or gone, and logs it.
func (t *Terminal) statusBelow(floor uint64) bool {
	sl, ok := t.data.Status.(*ledger.StatusList)
	switch {
	case !ok:
		t.log.Error("terminal: no pack status list, but one was installed: nothing is judged or sold until it is installed again",
			"newest_installed", floor)
	case sl.Version < floor:
		t.log.Error("terminal: pack status list older than the newest installed: refused, nothing is judged or sold until it is installed again",
			"version", sl.Version, "newest_installed", floor)
	default:
		return false
	}
	return true
}

// statementBelow says whether the statement of version have (0: none) is older than
// floor, and logs it.
func (t *Terminal) statementBelow(have, floor uint64, what string) bool {
	if have >= floor {
		return false
	}
	t.log.Error("terminal: "+what+" older than the newest installed (or gone): nothing is judged or paid until it is installed again",
		"version", have, "newest_installed", floor)
	return true
}

// dataGate answers a code scanned while the operator or firmware keys, the operator
// limits or the pack status list are refused, or whose block's ledger is: journalled
// (refused, reason keys-refused, firmware-keys-refused, limits-refused, status-refused or
// ledger-refused, the ticket or pack), nothing judged.
func (t *Terminal) dataGate(id codes.TicketID) State {
	t.raiseFleetFloors()
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
	if err := t.recordRefusal(id, res.name); err != nil {
		t.log.Error("terminal: journal refusal", "err", err)
	}
	return res
}
