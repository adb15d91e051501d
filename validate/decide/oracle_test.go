package decide

import "math/big"

// oracle is an independent statement of the rules, written as a table read top to bottom
// (the first rule that applies decides), with exact arithmetic: the tests check Decide
// against it.
func oracle(in Input) Decision {
	winner := in.Ledger.Pack == PackListed && in.Ledger.Lookup == LookupWinner && in.Ledger.Prize > 0
	offline := in.Fleet == FleetUnreachable || in.Fleet == FleetOfflineOnly
	prize := big.NewInt(in.Ledger.Prize)
	sum := func(a int64) *big.Int { return new(big.Int).Add(big.NewInt(a), prize) }
	exceeds := func(a *big.Int, limit int64) bool { return a.Cmp(big.NewInt(limit)) > 0 }
	rules := []struct {
		when bool
		then Decision
	}{
		{in.Ledger.Pack == PackVoid, Decision{Refuse, VoidPack}},
		{in.Ledger.Pack != PackListed, Decision{Refuse, StolenPack}},
		{in.Ledger.Lookup == LookupUnknownBlock, Decision{Refuse, UnknownBlock}},
		{in.Ledger.Lookup == LookupForged, Decision{Refuse, Forged}},
		{in.Ledger.Lookup == LookupOutOfRange, Decision{Refuse, OutOfRange}},
		{in.Ledger.Lookup == LookupTampered, Decision{Refuse, LedgerTampered}},
		{in.Ledger.Lookup == LookupLoser, Decision{Refuse, Loser}},
		{in.Ledger.Lookup != LookupWinner, Decision{Refuse, NoLedger}},
		{!winner, Decision{Refuse, Loser}},
		{in.Journal.PaidHere, Decision{Refuse, PaidHere}},
		{in.Journal.ClaimedHere, Decision{Claim, ClaimedHere}},
		{exceeds(prize, in.Limits.PerTicket), Decision{Claim, OverTicketLimit}},
		{exceeds(sum(in.Journal.DayPayouts), in.Limits.PerDay), Decision{Claim, OverDayLimit}},
		{in.Fleet == FleetNotAsked, Decision{Ask, AskFleet}},
		{in.Fleet == FleetNone || in.Fleet == FleetWon, Decision{Pay, Winner}},
		{in.Fleet == FleetPaidElsewhere, Decision{Refuse, PaidElsewhere}},
		{in.Fleet == FleetPaidBefore, Decision{Refuse, PaidBeforeReset}},
		{in.Fleet == FleetRefused, Decision{Refuse, RefusedByFleet}},
		{in.Fleet == FleetRestored, Decision{Refuse, JournalRestored}},
		{!offline, Decision{Refuse, ClaimFailed}},
		{exceeds(prize, in.Limits.OfflinePerTicket), Decision{Refuse, OfflineOverLimit}},
		{in.Fleet == FleetOfflineOnly, Decision{Pay, Unconfirmed}},
		{in.Journal.StartedAfresh, Decision{Refuse, OfflineAfterReset}},
		{in.Journal.Exposure == ExposureUntracked, Decision{Pay, Unconfirmed}},
		{in.Journal.Exposure != ExposureKnown, Decision{Refuse, OfflineOverTotal}},
		{exceeds(sum(in.Journal.Unconfirmed), in.Limits.OfflineTotal), Decision{Refuse, OfflineOverTotal}},
	}
	for _, r := range rules {
		if r.when {
			return r.then
		}
	}
	return Decision{Pay, Unconfirmed}
}
