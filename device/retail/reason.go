package retail

import (
	"errors"

	"github.com/packterm/pos/device/locale"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/decide"
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

// explained are the outcomes of a verdict that have a headline and a reason: their
// texts are the locale's "headline."+name and "reason."+name (textKey).
var explained = map[decide.Reason]bool{
	decide.Winner: true, decide.Loser: true, decide.PaidHere: true, decide.Invalid: true, decide.Forged: true,
	decide.VoidPack: true, decide.StolenPack: true, decide.UnknownBlock: true, decide.OutOfRange: true,
	decide.NoLedger: true, decide.Locked: true, decide.LedgerTampered: true,
}

// textKey is the locale's key of outcome r's text of kind ("headline", "reason",
// "refusal"): the kind, a dot and r's machine name (decide.Reason.String), its one name.
func textKey(kind string, r decide.Reason) locale.Key { return locale.Key(kind + "." + r.String()) }

// Reason is the verdict's French explanation, one sentence (posctl ledger check).
func (v Verdict) Reason() string { return v.ReasonIn(nil) }

// ReasonIn is the verdict's explanation in the language of l (nil: French).
func (v Verdict) ReasonIn(l *locale.Locale) string {
	l = locale.Or(l)
	if !explained[v.Outcome] {
		return ""
	}
	switch v.Outcome {
	case decide.Winner:
		return l.Text("reason.winner", v.Ticket, v.Result.Game.Number, v.Result.Game.Name, v.Result.Tier)
	case decide.Loser:
		return l.Text("reason.loser", v.Ticket, v.Result.Game.Number, v.Result.Game.Name)
	case decide.Invalid:
		return l.Text(v.codeReason() + ".why")
	case decide.UnknownBlock, decide.LedgerTampered:
		return l.Text(textKey("reason", v.Outcome), v.Ticket.Block)
	}
	return l.Text(textKey("reason", v.Outcome), v.Ticket)
}

// Headline is the verdict's first word as screens and posctl print it, in French.
func (v Verdict) Headline() string { return v.HeadlineIn(nil) }

// HeadlineIn is the verdict's first word in the language of l (nil: French).
func (v Verdict) HeadlineIn(l *locale.Locale) string {
	l = locale.Or(l)
	if !explained[v.Outcome] {
		return "?"
	}
	if v.Outcome == decide.Winner {
		return l.Text("headline.winner", l.PlainMoney(v.Amount()))
	}
	return l.Text(textKey("headline", v.Outcome))
}

// Line is the verdict as one line: headline and reason.
func (v Verdict) Line() string { return v.Headline() + " (" + v.Reason() + ")" }
