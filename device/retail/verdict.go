package retail

import (
	"errors"

	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/decide"
	"github.com/packterm/pos/validate/ledger"
)

// PackStatus says what state a pack is in; *ledger.StatusList implements it, and so does
// AllDelivered.
type PackStatus interface {
	State(block uint16, pack uint32) ledger.PackState
}

var _ PackStatus = (*ledger.StatusList)(nil)

// AllDelivered counts every pack as delivered: the emulator's stand-in for a status list.
type AllDelivered struct{}

// State implements PackStatus.
func (AllDelivered) State(uint16, uint32) ledger.PackState { return ledger.PackDelivered }

// Verdict is the answer to a validation code.
type Verdict struct {
	// Outcome is what the code gets, in validate/decide's one vocabulary: the ledger's
	// verdict (decide.Judge), then the terminal's decision (decide.PaidHere…), or the
	// terminal's own refusals (decide.Invalid, decide.Locked). The screens, signals and
	// texts of this package are chosen by it, its String is what the journal records.
	Outcome decide.Reason
	// Code is the parsed code (zero for decide.Invalid).
	Code codes.ValidationCode
	// Ticket is the ticket the code names (zero for decide.Invalid).
	Ticket codes.TicketID
	// Result is the ledger's answer (decide.Winner, decide.Loser).
	Result ledger.Result
	// Err is the cause of a refusal (a *codes.Error, a ledger error).
	Err error
	// Ledger is the verdict as validate/decide takes it (JudgeCode sets it).
	Ledger decide.Ledger
}

// Amount is the lot in cents (0 unless decide.Winner).
func (v Verdict) Amount() int64 { return int64(v.Result.Lot) }

// Judge answers a validation code text against the installed ledgers (nil or empty: none
// installed; the code's block picks its ledger) and the pack status list (nil: no list,
// every pack is then neither void nor stolen).
func Judge(l *ledger.Set, status PackStatus, text string) Verdict {
	code, err := codes.ParseValidation(text)
	if err != nil {
		return Verdict{Outcome: decide.Invalid, Err: err}
	}
	return JudgeCode(l, status, code)
}

// JudgeCode is Judge on a parsed code: it reads the pack status list and the ledger
// (decide.Ledger) and names the verdict as validate/decide judges them (decide.Judge: a
// void or stolen pack first, then the ledger's answer).
func JudgeCode(l *ledger.Set, status PackStatus, code codes.ValidationCode) Verdict {
	v := Verdict{Code: code, Ticket: code.ID()}
	if status != nil {
		switch status.State(v.Ticket.Block, v.Ticket.Pack) {
		case ledger.PackVoid:
			v.Ledger.Pack = decide.PackVoid
		case ledger.PackStolen:
			v.Ledger.Pack = decide.PackStolen
		}
	}
	var r ledger.Result
	var err error
	v.Ledger.Lookup, r, err = lookup(l, code)
	v.Ledger.Prize = int64(r.Lot)
	v.Outcome = decide.Judge(v.Ledger)
	switch v.Outcome {
	case decide.Winner, decide.Loser:
		v.Result = r
	case decide.VoidPack, decide.StolenPack:
	default:
		v.Err = err
	}
	return v
}

// lookup is the ledger's answer for code (no ledger installed: decide.LookupNone).
func lookup(l *ledger.Set, code codes.ValidationCode) (decide.Lookup, ledger.Result, error) {
	if l.Len() == 0 {
		return decide.LookupNone, ledger.Result{}, nil
	}
	r, err := l.Lookup(code)
	switch {
	case err == nil && r.Winner():
		return decide.LookupWinner, r, nil
	case err == nil:
		return decide.LookupLoser, r, nil
	case errors.Is(err, ledger.ErrUnknownBlock):
		return decide.LookupUnknownBlock, r, err
	case errors.Is(err, ledger.ErrForged):
		return decide.LookupForged, r, err
	case errors.Is(err, ledger.ErrOutOfRange):
		return decide.LookupOutOfRange, r, err
	case errors.Is(err, ledger.ErrTampered), errors.Is(err, ledger.ErrFault):
		return decide.LookupTampered, r, err
	}
	return decide.LookupNone, r, err
}

// PackOutcome is what a pack code gets before the terminal's own check (already sold).
type PackOutcome int

// Pack outcomes.
const (
	PackSellable PackOutcome = iota + 1
	PackNotDelivered
	PackVoid
	PackStolen
	PackUnknownBlock
	PackOutOfRange
	PackNoLedger
)

var packNames = map[PackOutcome]string{
	PackSellable: "sellable", PackNotDelivered: "not-delivered", PackVoid: "void-pack", PackStolen: "stolen-pack",
	PackUnknownBlock: "unknown-block", PackOutOfRange: "out-of-range", PackNoLedger: "no-ledger",
}

// String is the stable machine name.
func (o PackOutcome) String() string { return packNames[o] }

// JudgePack says whether pack p may be sold here: a block with an installed ledger, a pack
// in it, delivered to this retailer per the status list, neither void nor stolen.
func JudgePack(l *ledger.Set, status PackStatus, p codes.PackCode) PackOutcome {
	if l.Len() == 0 {
		return PackNoLedger
	}
	bl := l.Get(p.Block)
	if bl == nil {
		return PackUnknownBlock
	}
	h := bl.Header()
	if p.Pack >= h.Packs {
		return PackOutOfRange
	}
	if status == nil {
		return PackNotDelivered
	}
	switch status.State(p.Block, p.Pack) {
	case ledger.PackDelivered:
		return PackSellable
	case ledger.PackVoid:
		return PackVoid
	case ledger.PackStolen:
		return PackStolen
	}
	return PackNotDelivered
}
