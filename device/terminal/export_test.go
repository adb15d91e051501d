package terminal

import (
	"context"

	"github.com/packterm/pos/device/retail"
	"github.com/packterm/pos/validate/codes"
)

// Hooks for the state tests (package terminal_test, states_*_test.go): each state of the
// machine built alone, run alone on the fakes of terminaltest, and what it leads to.

// Step runs one state, as Run does, and returns the next (nil: ctx ended).
func (t *Terminal) Step(ctx context.Context, st State) State {
	t.enter(st)
	return st.Run(ctx, t)
}

// Start is the machine's start: what the journal says, the state it begins in.
func (t *Terminal) Start(ctx context.Context) (State, error) { return t.start(ctx) }

// The states.
func IdleState() State                              { return idle{} }
func ResultState(name string) State                 { return result{name, retail.Idle(), retail.SignalNone} }
func ValidationState(c codes.ValidationCode) State  { return validation{code: c} }
func PayOfferState(v retail.Verdict) State          { return fromVerdict{v: v, offer: true} }
func PayState(v retail.Verdict) State               { return fromVerdict{v: v} }
func ClaimState(v retail.Verdict) State             { return claim{v: v} }
func SaleState(p codes.PackCode) State              { return sale{pack: p} }
func SellState(p codes.PackCode, price int64) State { return sell{pack: p, price: price} }
func ReportState() State                            { return report{} }
func ReprintState(seq uint64) State                 { return reprint{seq: seq} }
func ReprintMenuState() State                       { return reprintMenu{} }
func TamperLockState(then State) State              { return tamperLock{then: then} }
func FaultState(k retail.Fault, then State) State   { return fault{kind: k, then: then} }
func JournalRefusedState() State                    { return journalRefused{} }
func JournalResetOfferState() State                 { return journalResetOffer{by: "test"} }
func JournalResetDoneState() State                  { return journalResetDone{} }
func DispatchScan(t *Terminal, text, aim string) State {
	return t.scanned(Event{Kind: EvScan, Text: text, Symbology: aim})
}
func ReprintAsked(text string) State { return reprintAsked(text) }

// Then is the state a fault, a tamper lock, a delivery or a finished operation resumes
// with (nil for other states).
func Then(st State) State {
	switch s := st.(type) {
	case fault:
		return s.then
	case tamperLock:
		return s.then
	case deliver:
		return s.done
	case finishOp:
		return s.done
	case reprint:
		return s.done
	}
	return nil
}

// FaultKind is a fault state's fault.
func FaultKind(st State) (retail.Fault, bool) {
	f, ok := st.(fault)
	return f.kind, ok
}

// VerdictOf is the verdict a pay offer, a payout or a claim holds.
func VerdictOf(st State) (retail.Verdict, bool) {
	switch s := st.(type) {
	case payOffer:
		return s.v, true
	case pay:
		return s.v, true
	case claim:
		return s.v, true
	}
	return retail.Verdict{}, false
}

// OpensDrawer reports whether a delivery or a finished operation opens the drawer.
func OpensDrawer(st State) bool {
	switch s := st.(type) {
	case deliver:
		return s.drawer
	case finishOp:
		return s.drawer
	}
	return false
}

// fromVerdict is a pay offer (offer) or a payout of v built as the validation state builds
// it: with what validate/decide is asked of v on this terminal (decideInput).
type fromVerdict struct {
	v     retail.Verdict
	offer bool
}

func (s fromVerdict) Name() string {
	if s.offer {
		return payOffer{}.Name()
	}
	return pay{}.Name()
}

func (s fromVerdict) Run(ctx context.Context, t *Terminal) State {
	if s.offer {
		return payOffer{v: s.v, in: t.decideInput(s.v)}.Run(ctx, t)
	}
	return pay{v: s.v, in: t.decideInput(s.v)}.Run(ctx, t)
}
