package terminal

import (
	"context"
	"errors"

	"github.com/packterm/pos/device/retail"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/journal"
)

// validation answers a validation code: winner (paid here or claimed), loser, or refusal.
type validation struct{ code codes.ValidationCode }

func (validation) Name() string { return "validation" }

func (s validation) Run(ctx context.Context, t *Terminal) State {
	now := t.cfg.Clock.Now()
	if left := t.throttle.locked(now); left > 0 {
		v := retail.Verdict{Outcome: retail.Locked, Code: s.code, Ticket: s.code.ID()}
		t.journalRefusal(v)
		return result{"locked", retail.LockedScreen(left), retail.SignalAttention}
	}
	v := retail.JudgeCode(t.data.Ledgers, t.data.Status, s.code)
	switch v.Outcome {
	case retail.Forged:
		t.journalRefusal(v)
		if d := t.throttle.forged(now); d > 0 {
			return t.lockValidation(d)
		}
		return result{"forged", retail.Refusal(v), retail.SignalAttention}
	case retail.Winner:
	case retail.Loser:
		return result{"loser", retail.LoserScreen(), retail.SignalRefused}
	case retail.LedgerTampered:
		// The installed ledger's bytes for this ticket are not the ones verified at open:
		// someone rewrote (or truncated) the file under the terminal. Nothing is paid.
		t.journalRefusal(v)
		t.log.Error("terminal: installed ledger changed on disk since it was verified: validation refused, nothing paid",
			"ticket", v.Ticket.String(), "err", v.Err)
		return result{v.Outcome.String(), retail.Refusal(v), retail.SignalOf(v.Outcome)}
	default:
		t.journalRefusal(v)
		return result{v.Outcome.String(), retail.Refusal(v), retail.SignalOf(v.Outcome)}
	}
	if rec, paid, err := t.data.Journal.Paid(v.Ticket); err != nil {
		return t.journalFault(err)
	} else if paid {
		v.Outcome = retail.AlreadyPaid
		t.journalRefusal(v)
		return result{"already-paid", retail.AlreadyPaidScreen(rec.Time, rec.Terminal), retail.SignalRefused}
	}
	if rec, claimed, err := t.data.Journal.Claimed(v.Ticket); err != nil {
		return t.journalFault(err)
	} else if claimed {
		// A claim receipt is out for this ticket: it is paid by the payment centre only,
		// and claimed once; its claim receipt is printed again, marked DUPLICATA.
		return claimAgain(rec)
	}
	day, err := t.data.Journal.Day(now)
	if err != nil {
		return t.journalFault(err)
	}
	if v.Amount() > t.cfg.PerTicket || day.PayoutsAmount+v.Amount() > t.cfg.PerDay {
		return claim{v: v}
	}
	return payOffer{v: v}
}

// lockValidation records and shows a brute-force lock.
func (t *Terminal) lockValidation(d durationLock) State {
	_, err := t.record(journal.Entry{Kind: journal.KindLock, Reason: "forged", Detail: d.String()})
	if err != nil {
		t.log.Error("terminal: journal lock", "err", err)
	}
	t.log.Warn("terminal: validation locked after repeated forged codes", "for", d.String())
	return result{"locked", retail.LockedScreen(d.Duration()), retail.SignalAttention}
}

// journalRefusal records a refused validation: the reason and the ticket, never the code.
func (t *Terminal) journalRefusal(v retail.Verdict) {
	e := journal.Entry{Kind: journal.KindRefused, Reason: v.Outcome.String(), Ticket: v.Ticket}
	if v.Ticket.Validate() != nil {
		e.Ticket = codes.TicketID{}
	} else {
		e.Game = int(v.Ticket.Position)
	}
	if _, err := t.record(e); err != nil && !errors.Is(err, journal.ErrReadOnly) {
		t.log.Error("terminal: journal refusal", "err", err)
	}
}

// payOffer shows the winner's amount and waits: OK pays, CANCEL leaves it unpaid (inquiry).
type payOffer struct{ v retail.Verdict }

func (payOffer) Name() string { return "pay-offer" }

func (s payOffer) Run(ctx context.Context, t *Terminal) State {
	t.show(retail.WinnerScreen(s.v.Amount()))
	t.signal(ctx, retail.SignalOK)
	since := t.cfg.Clock.Now()
	for {
		ev, ok := t.wait(ctx, t.cfg.OfferTimeout)
		switch {
		case !ok && ctx.Err() != nil:
			return nil
		case !ok, ev.Kind == EvCancel && answered(ev, since):
			return result{"pay-cancelled", retail.PayCancelled(s.v.Amount()), retail.SignalNone}
		case ev.Kind == EvOK && answered(ev, since):
			if next := t.checkDisplay(s); next != nil {
				return next // the amount confirmed was on a panel that does not answer
			}
			return pay(s)
		case ev.Kind == EvTamper && t.tampered():
			return tamperLock{}
		case ev.Kind == EvScan:
			return t.scanned(ev)
		case ev.Kind == EvScannerGone, ev.Kind == EvScannerBack:
			t.setScanner(ev.Kind == EvScannerBack)
		}
	}
}

// pay records the payout durably, then prints the two receipts, opens the drawer and lights
// the green LED (deliver).
type pay struct{ v retail.Verdict }

func (pay) Name() string { return "pay" }

func (s pay) Run(ctx context.Context, t *Terminal) State {
	if r, ok := t.journalPaid(s.v.Ticket); ok { // paid here: no claim to make
		return result{"already-paid", retail.AlreadyPaidScreen(r.Time, r.Terminal), retail.SignalRefused}
	}
	if !t.storageOK() { // before the fleet is asked: nothing can be recorded
		return t.storageFault(errors.New("spool or state directory takes no writes"), payOffer(s))
	}
	reason, refused := t.claimFleetWide(ctx, s.v)
	if refused != nil {
		return refused
	}
	r, err := t.recordWithReceipts(journal.Entry{
		Kind: journal.KindPayout, Ticket: s.v.Ticket, Game: int(s.v.Ticket.Position), Amount: s.v.Amount(),
		Code: s.v.Code.String(), Reason: reason,
	}, []string{"J", "C"}, t.payoutReceipts)
	var se *storageError
	switch {
	case errors.As(err, &se):
		return t.storageFault(err, payOffer(s)) // nothing paid: offered again once it clears
	case errors.Is(err, journal.ErrDuplicatePayout):
		r, _, _ := t.data.Journal.Paid(s.v.Ticket)
		return result{"already-paid", retail.AlreadyPaidScreen(r.Time, r.Terminal), retail.SignalRefused}
	case errors.Is(err, journal.ErrDuplicateClaim):
		if c, ok, _ := t.data.Journal.Claimed(s.v.Ticket); ok {
			return claimAgain(c)
		}
		return t.journalFault(err)
	case err != nil:
		return t.journalFault(err)
	}
	t.log.Info("terminal: payout recorded", "ticket", s.v.Ticket.String(), "amount", s.v.Amount(), "seq", r.rec.Seq)
	return delivery(r, true, result{"paid", retail.Paid(s.v.Amount()), retail.SignalOK})
}

// claim records a winner above the limits (or claimed here before) and prints its claim
// receipt: nothing is paid.
type claim struct{ v retail.Verdict }

func (claim) Name() string { return "claim" }

func (s claim) Run(ctx context.Context, t *Terminal) State {
	r, err := t.recordWithReceipts(journal.Entry{
		Kind: journal.KindClaim, Ticket: s.v.Ticket, Game: int(s.v.Ticket.Position), Amount: s.v.Amount(),
	}, []string{"R"}, t.claimReceipts)
	var se *storageError
	switch {
	case errors.As(err, &se):
		return t.storageFault(err, nil)
	case errors.Is(err, journal.ErrDuplicateClaim):
		if c, ok, _ := t.data.Journal.Claimed(s.v.Ticket); ok {
			return claimAgain(c)
		}
		return t.journalFault(err)
	case err != nil:
		return t.journalFault(err)
	}
	return delivery(r, false, result{"claim", retail.Claim(s.v.Amount()), retail.SignalOK})
}

// claimAgain answers a ticket claimed here before: its claim receipt again, marked
// DUPLICATA (a reprint, journalled); no new claim.
func claimAgain(c journal.Record) State {
	return reprint{seq: c.Seq, done: result{"claimed-again", retail.ClaimedAgain(c.Amount), retail.SignalOK}}
}
