package terminal

import (
	"context"
	"errors"

	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/device/retail"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/decide"
	"github.com/packterm/pos/validate/journal"
)

// claimFleetWide claims the ticket with the fleet before it is paid (nothing to ask
// without a fleet) and decides again (validate/decide) with the fleet's answer
// (fleet.Answer); when the fleet is out of reach it reads the facts the offline limits
// need: whether the journal was started afresh, the unconfirmed payouts not yet claimed
// (fleet.Exposure). It returns the payout's journal reason (journal.ReasonUnconfirmed
// when paid offline), or the refusal to show instead of paying, journalled without the
// code: another terminal holds the claim, the fleet is out of reach above the offline
// limits, the claim service refused the claim ("fleet-refused:<reason>"), or the claim
// failed otherwise (fail closed). This terminal's own claim made under an earlier journal
// is refused as already paid, journalled as decide.PaidBeforeReset.
func (t *Terminal) claimFleetWide(ctx context.Context, v retail.Verdict, in decide.Input) (reason string, refused State) {
	var err error
	var taken *fleet.TakenError
	in.Fleet = decide.FleetNone
	if t.data.Fleet != nil {
		_, err = t.data.Fleet.Claim(ctx, v.Code, v.Amount()) // the full code: the service checks it against the ledger
		in.Fleet, taken = fleet.Answer(t.data.Fleet, err)
	}
	if in.Fleet == decide.FleetUnreachable {
		t.offlineFacts(&in.Journal)
	}
	d := decide.Decide(in)
	var st State
	switch d.Reason {
	case decide.Winner:
		return "", nil
	case decide.Unconfirmed:
		t.log.Warn("terminal: fleet out of reach, paying within the offline limit", "ticket", v.Ticket.String(), "amount", v.Amount())
		return journal.ReasonUnconfirmed, nil
	case decide.PaidElsewhere:
		st = result{"paid-elsewhere", retail.PaidElsewhereScreen(taken.Holder.At, taken.Holder.Terminal), retail.SignalRefused}
	case decide.PaidBeforeReset:
		// Paid here, under the journal before a reset or a wipe (this journal does not
		// know it): already paid, with when.
		st = result{"already-paid", retail.AlreadyPaidScreen(taken.Holder.At, taken.Holder.Terminal), retail.SignalRefused}
	case decide.OfflineOverLimit, decide.OfflineAfterReset:
		st = result{"fleet-offline", retail.OfflineRefusedScreen(v.Amount()), retail.SignalRefused}
	case decide.OfflineOverTotal:
		st = result{"offline-total", retail.OfflineRefusedScreen(v.Amount()), retail.SignalRefused}
	case decide.RefusedByFleet:
		st = result{"fleet-refused", retail.FleetRefusedScreen(refusedReason(err)), retail.SignalRefused}
	case decide.JournalRestored:
		st = result{"journal-restored", retail.JournalRestoredScreen(), retail.SignalAttention}
	default:
		st = result{"claim-failed", retail.ClaimFailedScreen(), retail.SignalAttention}
	}
	why := d.Reason.String()
	if d.Reason == decide.RefusedByFleet {
		why += ":" + refusedReason(err)
	}
	if d.Reason == decide.PaidBeforeReset {
		t.log.Error("terminal: ticket paid by this terminal under an earlier journal (before a journal reset or a wipe): refused as already paid",
			"ticket", v.Ticket.String(), "claimed at", taken.Holder.At, "earlier record", taken.Holder.Record)
	} else {
		t.log.Warn("terminal: payout refused by the fleet claim", "ticket", v.Ticket.String(), "decision", d.String(), "reason", why, "err", err)
	}
	if err := t.recordRefusal(v.Ticket, why); err != nil {
		return "", t.journalFault(err)
	}
	return "", st
}

// offlineFacts reads what the offline limits need when the fleet is out of reach: a
// journal a technician started afresh does not know the payouts of the one before (only
// the fleet can say a ticket was not paid then; unreadable counts as afresh), and the
// total of this terminal's unconfirmed payouts not yet claimed fleet-wide (a Claimer
// without Exposure claims nothing later: untracked).
func (t *Terminal) offlineFacts(j *decide.Journal) {
	started, err := t.data.Journal.StartedAfresh()
	j.StartedAfresh = started || err != nil
	j.Exposure = decide.ExposureUntracked
	if e, ok := t.data.Fleet.(fleet.Exposure); ok {
		sum, err := e.Unclaimed()
		j.Unconfirmed, j.Exposure = sum, decide.ExposureKnown
		if err != nil {
			j.Exposure = decide.ExposureUnreadable
		}
	}
}

// refusedReason is the claim service's reason of a refused claim (fleet's Refused… names).
func refusedReason(err error) string {
	var refused *fleet.RefusedError
	if errors.As(err, &refused) {
		return refused.Reason
	}
	return ""
}

// journalPaid reports whether this terminal's journal already holds a payout of id.
func (t *Terminal) journalPaid(id codes.TicketID) (journal.Record, bool) {
	r, ok, err := t.data.Journal.Paid(id)
	return r, ok && err == nil
}

// record appends e to the journal and, in a fleet, wakes the fleet client so the record
// is published at once (it would otherwise wait for the client's next round).
func (t *Terminal) record(e journal.Entry) (journal.Record, error) {
	return t.recorded(t.data.Journal.Append(e))
}

// recorded tells the observer and the fleet client of r, appended unless err.
func (t *Terminal) recorded(r journal.Record, err error) (journal.Record, error) {
	if err == nil {
		t.observer().Recorded(r)
	}
	if err == nil && t.data.Fleet != nil {
		t.data.Fleet.Notify()
	}
	return r, err
}
