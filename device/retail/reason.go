package retail

import (
	"errors"

	"github.com/packterm/pos/device/locale"
	"github.com/packterm/pos/validate/codes"
)

// codeReasons name the locale's reasons of a malformed code: key, a short one for the
// screen; key+".why", a sentence for posctl and receipts.
var codeReasons = []struct {
	err error
	key locale.Key
}{
	{codes.ErrCheck, "code.check"},
	{codes.ErrLength, "code.length"},
	{codes.ErrCharacter, "code.character"},
	{codes.ErrRange, "code.range"},
	{codes.ErrInconsistent, "code.inconsistent"},
	{codes.ErrVersion, "code.version"},
	{codes.ErrUnknownKind, "code.kind"},
	{codes.ErrSymbology, "code.symbology"},
	{codes.ErrEmpty, "code.empty"},
}

// codeReason is the key of the reason of v's malformed code.
func (v Verdict) codeReason() locale.Key {
	for _, r := range codeReasons {
		if errors.Is(v.Err, r.err) {
			return r.key
		}
	}
	return "code.unreadable"
}

// shortReason is the screen of a malformed code: CODE INVALIDE and why.
func shortReason(v Verdict) Screen { return say("refusal.invalid", v.codeReason()) }

// outcomeKeys name an outcome's headline ("headline."+key) and reason ("reason."+key).
var outcomeKeys = map[Outcome]string{
	Winner: "winner", Loser: "loser", AlreadyPaid: "already-paid", Invalid: "invalid", Forged: "forged",
	VoidPack: "void", StolenPack: "stolen", UnknownBlock: "unknown-block", OutOfRange: "out-of-range",
	NoLedger: "no-ledger", Locked: "locked", LedgerTampered: "ledger-tampered",
}

// Reason is the verdict's French explanation, one sentence (posctl ledger check).
func (v Verdict) Reason() string { return v.ReasonIn(nil) }

// ReasonIn is the verdict's explanation in the language of l (nil: French).
func (v Verdict) ReasonIn(l *locale.Locale) string {
	l = locale.Or(l)
	k, ok := outcomeKeys[v.Outcome]
	if !ok {
		return ""
	}
	switch v.Outcome {
	case Winner:
		return l.Text("reason.winner", v.Ticket, v.Result.Game.Number, v.Result.Game.Name, v.Result.Tier)
	case Loser:
		return l.Text("reason.loser", v.Ticket, v.Result.Game.Number, v.Result.Game.Name)
	case Invalid:
		return l.Text(v.codeReason() + ".why")
	case UnknownBlock, LedgerTampered:
		return l.Text(locale.Key("reason."+k), v.Ticket.Block)
	}
	return l.Text(locale.Key("reason."+k), v.Ticket)
}

// Headline is the verdict's first word as screens and posctl print it, in French.
func (v Verdict) Headline() string { return v.HeadlineIn(nil) }

// HeadlineIn is the verdict's first word in the language of l (nil: French).
func (v Verdict) HeadlineIn(l *locale.Locale) string {
	l = locale.Or(l)
	k, ok := outcomeKeys[v.Outcome]
	if !ok {
		return "?"
	}
	if v.Outcome == Winner {
		return l.Text("headline.winner", l.PlainMoney(v.Amount()))
	}
	return l.Text(locale.Key("headline." + k))
}

// Line is the verdict as one line: headline and reason.
func (v Verdict) Line() string { return v.Headline() + " (" + v.Reason() + ")" }
