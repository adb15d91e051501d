package terminal

import (
	"regexp"
	"strconv"

	"github.com/packterm/pos/device/retail"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/journal"
	"github.com/packterm/pos/validate/ledger"
)

// statusReplay bounds how many status-install records the start reads back.
const statusReplay = 256

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
		return read < statusReplay
	})
	return floor, had, err
}

// checkStatusList refuses, at start, a pack status list older than the newest the journal
// says was installed (the retailer put an older signed file back), or none at all on a
// terminal that had one (the file removed: the void and stolen packs would no longer be
// checked). Then t.statusRefused holds: STATUS REFUSED at rest, and every code scanned is
// refused before it is judged (statusGate), until a technician installs the list again.
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

// statusGate answers a code scanned while the pack status list is refused: journalled
// (refused, reason status-refused, the ticket or pack), nothing judged.
func (t *Terminal) statusGate(id codes.TicketID) State {
	if !t.statusRefused {
		return nil
	}
	e := journal.Entry{Kind: journal.KindRefused, Reason: "status-refused", Ticket: id}
	whole := id // a pack (position 0) is checked as its first ticket
	whole.Position = max(whole.Position, 1)
	if whole.Validate() != nil {
		e.Ticket = codes.TicketID{}
	}
	if _, err := t.recordTrace(e); err != nil {
		t.log.Error("terminal: journal refusal", "err", err)
	}
	return result{"status-refused", retail.StatusRefusedScreen(), retail.SignalRefused}
}
