package retail

import (
	"testing"

	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/decide"
	"github.com/packterm/pos/validate/ledger"
)

// TestOutcomeOfDecideReasons: every reason of the ledger's verdict, and a ticket paid here,
// is shown as an outcome whose machine name is the reason's (the name journalled for a
// refusal does not change), and with words of its own.
func TestOutcomeOfDecideReasons(t *testing.T) {
	for _, r := range []decide.Reason{decide.Winner, decide.Loser, decide.VoidPack, decide.StolenPack, decide.NoLedger,
		decide.UnknownBlock, decide.Forged, decide.OutOfRange, decide.LedgerTampered, decide.PaidHere} {
		o := OutcomeOf(r)
		if o == 0 || o.String() != r.String() {
			t.Errorf("%v: outcome %v", r, o)
		}
		if (Verdict{Outcome: o}).Headline() == "?" {
			t.Errorf("%v: no headline", r)
		}
	}
	if o := OutcomeOf(decide.OverTicketLimit); o != 0 {
		t.Errorf("a claim reason shown as the outcome %v", o)
	}
}

type voidAll struct{}

func (voidAll) State(uint16, uint32) ledger.PackState { return ledger.PackVoid }

// TestJudgeCarriesTheLedger: JudgeCode's verdict carries what validate/decide takes, and
// names it as decide.Judge does (the pack status list before the ledger).
func TestJudgeCarriesTheLedger(t *testing.T) {
	code := codes.ValidationCodeOf(codes.TicketID{Block: 7, Pack: 1, Position: 2}, [codes.SecretSize]byte{1})
	v := JudgeCode(nil, voidAll{}, code)
	if v.Ledger.Pack != decide.PackVoid || v.Ledger.Lookup != decide.LookupNone || v.Outcome != VoidPack {
		t.Fatalf("void pack, no ledger: %+v", v)
	}
	if v := JudgeCode(nil, nil, code); v.Outcome != NoLedger || v.Ledger != (decide.Ledger{}) {
		t.Fatalf("no ledger: %+v", v)
	}
}
