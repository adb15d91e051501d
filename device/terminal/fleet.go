package terminal

import (
	"context"
	"errors"

	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/device/retail"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/journal"
)

// claimFleetWide claims the ticket with the fleet before it is paid (nothing to do without
// a fleet). It returns the payout's journal reason (journal.ReasonUnconfirmed when paid
// offline within the offline limit), or the refusal to show instead of paying: another
// terminal holds the claim, the fleet is out of reach above the offline limit per ticket or
// the offline total (fleet.Offline), the claim service refused the claim (the code does
// not win per the operator's ledger, the pack is not this retailer's, rate limited:
// "fleet-refused:<reason>"), or the claim failed otherwise (fail closed). A refusal is
// journalled, without the code. This terminal's own claim made under an earlier journal
// (fleet.RefusePaidBefore: paid before a journal reset or a wipe) is refused as already
// paid, journalled as ReasonPaidBeforeReset. In a fleet, a journal started afresh (its
// first record a journal reset) pays nothing unconfirmed: every payout needs the fleet's
// answer.
func (t *Terminal) claimFleetWide(ctx context.Context, v retail.Verdict) (reason string, refused State) {
	if t.data.Fleet == nil {
		return "", nil
	}
	_, err := t.data.Fleet.Claim(ctx, v.Code, v.Amount()) // the full code: the service checks it against the ledger
	off := fleet.Offline{PerTicket: t.cfg.OfflineLimit, Total: t.cfg.OfflineTotal}
	if e, ok := t.data.Fleet.(fleet.Exposure); ok {
		off.Unclaimed = e.Unclaimed
	}
	var afresh bool
	if _, alone := t.data.Fleet.(fleet.OfflineOnly); !alone {
		// A journal a technician started afresh does not know the payouts of the one
		// before: only the fleet can say a ticket was not paid then. Nothing unconfirmed.
		// (A terminal without a fleet has nothing to ask: its offline limit stands.)
		started, ferr := t.data.Journal.StartedAfresh()
		if afresh = started || ferr != nil; afresh {
			off.PerTicket = 0
		}
	}
	d, taken := fleet.Decide(err, v.Amount(), off)
	var why string
	var st State
	switch d {
	case fleet.Pay:
		return "", nil
	case fleet.PayUnconfirmed:
		t.log.Warn("terminal: fleet out of reach, paying within the offline limit", "ticket", v.Ticket.String(), "amount", v.Amount())
		return journal.ReasonUnconfirmed, nil
	case fleet.RefusePaidElsewhere:
		why = "paid-elsewhere"
		st = result{"paid-elsewhere", retail.PaidElsewhereScreen(taken.Holder.At, taken.Holder.Terminal), retail.SignalRefused}
	case fleet.RefusePaidBefore:
		// Paid here, under the journal before a reset or a wipe (this journal does not
		// know it): already paid, with when.
		why = ReasonPaidBeforeReset
		st = result{"already-paid", retail.AlreadyPaidScreen(taken.Holder.At, taken.Holder.Terminal), retail.SignalRefused}
	case fleet.RefuseOffline:
		why = "fleet-offline"
		if afresh && v.Amount() <= t.cfg.OfflineLimit {
			why = ReasonOfflineAfterReset // within the limit, but this journal pays nothing offline
		}
		st = result{"fleet-offline", retail.OfflineRefusedScreen(v.Amount()), retail.SignalRefused}
	case fleet.RefuseOfflineTotal:
		why = "offline-total"
		st = result{"offline-total", retail.OfflineRefusedScreen(v.Amount()), retail.SignalRefused}
	case fleet.RefuseByFleet:
		var refused *fleet.RefusedError
		errors.As(err, &refused)
		why = "fleet-refused:" + refused.Reason
		st = result{"fleet-refused", retail.FleetRefusedScreen(refused.Reason), retail.SignalRefused}
	default:
		why = "claim-failed"
		st = result{"claim-failed", retail.ClaimFailedScreen(), retail.SignalAttention}
	}
	if d == fleet.RefusePaidBefore {
		t.log.Error("terminal: ticket paid by this terminal under an earlier journal (before a journal reset or a wipe): refused as already paid",
			"ticket", v.Ticket.String(), "claimed at", taken.Holder.At, "earlier record", taken.Holder.Record)
	} else {
		t.log.Warn("terminal: payout refused by the fleet claim", "ticket", v.Ticket.String(), "decision", d.String(), "reason", why, "err", err)
	}
	if _, err := t.record(journal.Entry{Kind: journal.KindRefused, Ticket: v.Ticket, Game: int(v.Ticket.Position), Reason: why}); err != nil {
		return "", t.journalFault(err)
	}
	return "", st
}

// ReasonPaidBeforeReset is the reason of a refusal journalled when the fleet holds this
// terminal's own claim of the ticket from an earlier journal (fleet.PaidBeforeError).
const ReasonPaidBeforeReset = "paid-before-reset"

// ReasonOfflineAfterReset is the reason of a refusal journalled when the fleet is out of
// reach and the journal was started afresh: within the offline limit, but such a journal
// pays nothing unconfirmed.
const ReasonOfflineAfterReset = "offline-after-reset"

// journalPaid reports whether this terminal's journal already holds a payout of id.
func (t *Terminal) journalPaid(id codes.TicketID) (journal.Record, bool) {
	r, ok, err := t.data.Journal.Paid(id)
	return r, ok && err == nil
}

// record appends e to the journal and, in a fleet, wakes the fleet client so the record
// is published at once (it would otherwise wait for the client's next round).
func (t *Terminal) record(e journal.Entry) (journal.Record, error) {
	r, err := t.data.Journal.Append(e)
	if err == nil {
		t.observer().Recorded(r)
	}
	if err == nil && t.data.Fleet != nil {
		t.data.Fleet.Notify()
	}
	return r, err
}
