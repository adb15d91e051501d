package retail

import "github.com/packterm/pos/validate/decide"

// outcomes maps validate/decide's reasons of a verdict to the outcomes the screens and
// texts of this package show (Headline, Reason, Refusal, SignalOf).
var outcomes = map[decide.Reason]Outcome{
	decide.Winner: Winner, decide.Loser: Loser, decide.PaidHere: AlreadyPaid,
	decide.Forged: Forged, decide.VoidPack: VoidPack, decide.StolenPack: StolenPack,
	decide.UnknownBlock: UnknownBlock, decide.OutOfRange: OutOfRange, decide.NoLedger: NoLedger,
	decide.LedgerTampered: LedgerTampered,
}

// OutcomeOf is the outcome shown for a decision's reason: the ledger's verdicts and a
// ticket paid here; 0 for the reasons with screens of their own (limits, fleet).
func OutcomeOf(r decide.Reason) Outcome { return outcomes[r] }

func outcomeOf(r decide.Reason) Outcome {
	if o := OutcomeOf(r); o != 0 {
		return o
	}
	return NoLedger // decide.Judge says nothing else
}
