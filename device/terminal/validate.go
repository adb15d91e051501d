package terminal

import (
	"context"
	"errors"
	"time"

	"github.com/packterm/pos/device/retail"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/decide"
	"github.com/packterm/pos/validate/journal"
)

// validation answers a validation code: winner (paid here or claimed), loser, or refusal.
type validation struct{ code codes.ValidationCode }

func (validation) Name() string { return "validation" }

func (s validation) Run(ctx context.Context, t *Terminal) State {
	if next := t.dataGate(s.code.ID()); next != nil { // datafloor.go
		return next
	}
	now := t.cfg.Clock.Now()
	if left := t.throttle.locked(now); left > 0 {
		v := retail.Verdict{Outcome: decide.Locked, Code: s.code, Ticket: s.code.ID()}
		t.journalRefusal(v)
		return result{"locked", retail.LockedScreen(left), retail.SignalAttention}
	}
	v := retail.JudgeCode(t.data.Ledgers, t.data.Status, s.code)
	in := t.decideInput(v)
	var here facts
	if v.Outcome == decide.Winner { // the journal's facts matter for a winner only
		var err error
		if here, err = t.journalFacts(v.Ticket, now); err != nil {
			return t.journalFault(err)
		}
		in.Journal = here.Journal
	}
	d := decide.Decide(in)
	switch d.Action {
	case decide.Ask, decide.Pay:
		return payOffer{v: v, in: in}
	case decide.Claim:
		if d.Reason == decide.ClaimedHere {
			// A claim receipt is out for this ticket: it is paid by the payment centre only,
			// and claimed once; its claim receipt is printed again, marked DUPLICATA.
			return claimAgain(here.claim)
		}
		return claim{v: v}
	}
	v.Outcome = d.Reason
	switch d.Reason {
	case decide.Loser:
		return result{"loser", retail.LoserScreen(), retail.SignalRefused}
	case decide.Forged:
		t.journalRefusal(v)
		if lock := t.throttle.forged(now); lock > 0 {
			return t.lockValidation(lock)
		}
		return result{"forged", retail.Refusal(v), retail.SignalAttention}
	case decide.PaidHere:
		t.journalRefusal(v)
		return result{"already-paid", retail.AlreadyPaidScreen(here.payout.Time, here.payout.Terminal), retail.SignalRefused}
	case decide.LedgerTampered:
		// The installed ledger's bytes for this ticket are not the ones verified at open:
		// someone rewrote (or truncated) the file under the terminal. Nothing is paid.
		t.journalRefusal(v)
		t.log.Error("terminal: installed ledger changed on disk since it was verified: validation refused, nothing paid",
			"ticket", v.Ticket.String(), "err", v.Err)
	default:
		t.journalRefusal(v)
	}
	return result{v.Outcome.String(), retail.Refusal(v), retail.SignalOf(v.Outcome)}
}

// facts are the journal's facts of a winner, with the records behind them.
type facts struct {
	decide.Journal
	payout, claim journal.Record // this journal's payout and claim of the ticket, if any
}

// journalFacts reads what this journal knows of ticket id and of the day of now.
func (t *Terminal) journalFacts(id codes.TicketID, now time.Time) (facts, error) {
	var f facts
	var err error
	if f.payout, f.PaidHere, err = t.data.Journal.Paid(id); err != nil {
		return f, err
	}
	if f.claim, f.ClaimedHere, err = t.data.Journal.Claimed(id); err != nil {
		return f, err
	}
	day, err := t.data.Journal.Today(now) // the later of now's day and the last record's
	f.DayPayouts = day.PayoutsAmount
	return f, err
}

// decideInput is what validate/decide is asked of verdict v before the journal is read and
// the fleet asked: the ledger's verdict, the limits, and whether there is a fleet to ask.
func (t *Terminal) decideInput(v retail.Verdict) decide.Input {
	in := decide.Input{Ledger: v.Ledger, Limits: t.limits(), Fleet: decide.FleetNotAsked}
	if t.data.Fleet == nil {
		in.Fleet = decide.FleetNone
	}
	return in
}

// limits are the pay limits as validate/decide takes them.
func (t *Terminal) limits() decide.Limits {
	return decide.Limits{PerTicket: t.cfg.PerTicket, PerDay: t.cfg.PerDay,
		OfflinePerTicket: t.cfg.OfflinePerTicket, OfflineTotal: t.cfg.OfflineTotal}
}

// lockValidation records and shows a brute-force lock.
func (t *Terminal) lockValidation(d durationLock) State {
	_, err := t.recordTrace(journal.Entry{Kind: journal.KindLock, Reason: "forged", Detail: d.String()})
	if err != nil {
		t.log.Error("terminal: journal lock", "err", err)
	}
	t.log.Warn("terminal: validation locked after repeated forged codes", "for", d.String())
	return result{"locked", retail.LockedScreen(d.Duration()), retail.SignalAttention}
}

// journalRefusal records a refused validation: the reason and the ticket, never the code.
func (t *Terminal) journalRefusal(v retail.Verdict) {
	if err := t.recordRefusal(v.Ticket, v.Outcome.String()); err != nil && !errors.Is(err, journal.ErrReadOnly) {
		t.log.Error("terminal: journal refusal", "err", err)
	}
}

// recordRefusal is the one way a refused code is journalled (KindRefused): the reason
// (decide.Reason's name, or a refusal of the terminal's own: "fleet-refused:<why>",
// "status-refused", …) and the ticket, never the code; a ticket that is not one (a
// pack's position 0 counts as its first ticket) is left out.
func (t *Terminal) recordRefusal(id codes.TicketID, reason string) error {
	e := journal.Entry{Kind: journal.KindRefused, Reason: reason, Ticket: id}
	whole := id
	whole.Position = max(whole.Position, 1)
	if whole.Validate() != nil {
		e.Ticket = codes.TicketID{}
	}
	_, err := t.recordTrace(e)
	return err
}

// payOffer shows the winner's amount and waits: OK pays, CANCEL leaves it unpaid (inquiry).
// in is what decided the offer; pay decides again with the fleet's answer.
type payOffer struct {
	v  retail.Verdict
	in decide.Input
}

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
// the green LED (deliver). It decides again (validate/decide) with the journal read again
// and the fleet's answer to the claim.
type pay struct {
	v  retail.Verdict
	in decide.Input
}

func (pay) Name() string { return "pay" }

func (s pay) Run(ctx context.Context, t *Terminal) State {
	r, paid := t.journalPaid(s.v.Ticket)
	s.in.Journal.PaidHere = paid
	if decide.Decide(s.in).Reason == decide.PaidHere { // paid here: no claim to make
		return result{"already-paid", retail.AlreadyPaidScreen(r.Time, r.Terminal), retail.SignalRefused}
	}
	if !t.storageOK() { // before the fleet is asked: nothing can be recorded
		return t.storageFault(errors.New("spool or state directory takes no writes"), payOffer(s))
	}
	reason, refused := t.claimFleetWide(ctx, s.v, s.in)
	if refused != nil {
		return refused
	}
	rec, err := t.recordWithReceipts(journal.Entry{
		Kind: journal.KindPayout, Ticket: s.v.Ticket, Amount: s.v.Amount(), Code: s.v.Code, Reason: reason,
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
	t.log.Info("terminal: payout recorded", "ticket", s.v.Ticket.String(), "amount", s.v.Amount(), "seq", rec.rec.Seq)
	return delivery(rec, true, result{"paid", retail.Paid(s.v.Amount()), retail.SignalOK})
}

// claim records a winner above the limits (or claimed here before) and prints its claim
// receipt: nothing is paid.
type claim struct{ v retail.Verdict }

func (claim) Name() string { return "claim" }

func (s claim) Run(ctx context.Context, t *Terminal) State {
	r, err := t.recordWithReceipts(journal.Entry{
		Kind: journal.KindClaim, Ticket: s.v.Ticket, Amount: s.v.Amount(),
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
