package retail

import (
	"strings"
	"testing"

	"github.com/packterm/pos/device/locale"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/decide"
	"github.com/packterm/pos/validate/game"
	"github.com/packterm/pos/validate/ledger"
)

// TestEveryVerdictHasWords: every reason a verdict carries (the ledger's, decide.Judge; a
// ticket paid here; the terminal's own refusals) has a headline and a reason in every
// language, found under its machine name (textKey: a key the locale lacks would show as
// itself), and so has each refusal screen that takes no argument; a reason that is no
// verdict's (a claim's) has no headline.
func TestEveryVerdictHasWords(t *testing.T) {
	verdicts := []decide.Reason{decide.Winner, decide.Loser, decide.VoidPack, decide.StolenPack, decide.NoLedger,
		decide.UnknownBlock, decide.Forged, decide.OutOfRange, decide.LedgerTampered, decide.PaidHere,
		decide.Invalid, decide.Locked}
	for _, tag := range locale.Tags() {
		l, err := locale.Get(tag)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range verdicts {
			v := Verdict{Outcome: r, Result: ledger.Result{Game: game.Reglement().Game(3), Tier: 1, Lot: 5_00}}
			if h := v.HeadlineIn(l); h == "?" || strings.HasPrefix(h, "headline.") {
				t.Errorf("%s: %v: headline %q", tag, r, h)
			}
			if s := v.ReasonIn(l); s == "" || strings.Contains(s, "reason.") || strings.HasSuffix(s, ".why") {
				t.Errorf("%s: %v: reason %q", tag, r, s)
			}
		}
		for r := range plainRefusals {
			if k := textKey("refusal", r); l.Text(k) == string(k) {
				t.Errorf("%s: %v: no refusal screen %q", tag, r, k)
			}
		}
	}
	if h := (Verdict{Outcome: decide.OverTicketLimit}).Headline(); h != "?" {
		t.Errorf("a claim reason shown as a verdict: %q", h)
	}
}

type voidAll struct{}

func (voidAll) State(uint16, uint32) ledger.PackState { return ledger.PackVoid }

// TestJudgeCarriesTheLedger: JudgeCode's verdict carries what validate/decide takes, and
// names it as decide.Judge does (the pack status list before the ledger).
func TestJudgeCarriesTheLedger(t *testing.T) {
	code := codes.ValidationCodeOf(codes.TicketID{Block: 7, Pack: 1, Position: 2}, [codes.SecretSize]byte{1})
	v := JudgeCode(nil, voidAll{}, code)
	if v.Ledger.Pack != decide.PackVoid || v.Ledger.Lookup != decide.LookupNone || v.Outcome != decide.VoidPack {
		t.Fatalf("void pack, no ledger: %+v", v)
	}
	if v := JudgeCode(nil, nil, code); v.Outcome != decide.NoLedger || v.Ledger != (decide.Ledger{}) {
		t.Fatalf("no ledger: %+v", v)
	}
}
