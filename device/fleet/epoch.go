package fleet

import (
	"fmt"
	"time"

	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/journal"
)

// Epochs (docs/fleet.md, "Epochs: paid before a reset"). The service answers "yours" when
// a terminal claims a ticket it already holds, so that a retry after a crash between the
// claim and the journal's append still pays. A terminal whose journal was started afresh
// (journal.Journal.Reset) or whose data directory was wiped does not know the payouts of
// its earlier journal: "yours" alone would pay such a ticket again. Each claim therefore
// carries the epoch of the journal it is made under, the bucket keeps it, and the client
// turns a "yours" from an earlier journal into a *PaidBeforeError.

// PaidBeforeError: the ticket's claim is this terminal's own, made under an earlier
// journal than the one it has now: it was paid before that journal was reset or the
// terminal's data wiped. The terminal refuses it as already paid ("DÉJÀ PAYÉ", with the
// holder's time and terminal).
type PaidBeforeError struct {
	Ticket codes.TicketID
	Holder Claim  // this terminal's claim, under its earlier journal
	Epoch  string // the journal's epoch now
}

func (e *PaidBeforeError) Error() string {
	was := e.Holder.Epoch
	if was == "" {
		was = "unknown, an older claim"
	}
	return fmt.Sprintf("fleet: ticket %v already claimed by this terminal (%s) at %s under an earlier journal (epoch %s, now %s)",
		e.Ticket, e.Holder.Terminal, e.Holder.At.UTC().Format(time.RFC3339), was, e.Epoch)
}

// JournalEpoch is what EarlierJournal needs of the terminal's journal now.
type JournalEpoch struct {
	ID       string    // journal.Journal.Epoch ("" while unknown)
	Start    time.Time // the time of the journal's first record (journal.Journal.First)
	HasStart bool      // false while the journal is empty
}

// EarlierJournal reports whether holder, this terminal's own claim of a ticket, was made
// under an earlier journal than cur:
//   - a claim with an epoch: when it is not cur's;
//   - a claim stored before claims carried epochs: when it is older than cur's first
//     record, or cur has none yet (a claim cannot be older than the journal it was made
//     under: the terminal's own clock dates both).
func EarlierJournal(holder Claim, cur JournalEpoch) bool {
	if holder.Epoch != "" {
		return holder.Epoch != cur.ID
	}
	return !cur.HasStart || holder.At.Before(cur.Start)
}

// epochOf reads the epoch of j.
func epochOf(j *journal.Journal) (JournalEpoch, error) {
	id, err := j.Epoch()
	if err != nil {
		return JournalEpoch{}, fmt.Errorf("fleet: the journal's epoch: %w", err)
	}
	first, ok, err := j.First()
	if err != nil {
		return JournalEpoch{}, fmt.Errorf("fleet: the journal's first record: %w", err)
	}
	return JournalEpoch{ID: id, Start: first.Time, HasStart: ok}, nil
}

// checkEpoch checks an epoch as a claim carries it: printable ASCII, bounded.
func checkEpoch(e string) error {
	if len(e) > journal.MaxEpochLen {
		return badMessage("epoch: %d bytes, at most %d", len(e), journal.MaxEpochLen)
	}
	for i := 0; i < len(e); i++ {
		if e[i] < 0x21 || e[i] > 0x7e {
			return badMessage("epoch: not printable ASCII")
		}
	}
	return nil
}
