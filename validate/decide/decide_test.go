package decide

import (
	"math"
	"testing"
)

// everyInput calls f with every combination of the inputs over small domains that sit on
// each limit's boundary (below, at, above), plus one value of each enum past its last.
func everyInput(f func(Input)) {
	amounts := []int64{0, 1, 2}
	bools := []bool{false, true}
	var in Input
	for pack := range packEnd + 1 {
		in.Ledger.Pack = pack
		for lookup := range lookupEnd + 1 {
			in.Ledger.Lookup = lookup
			for _, in.Ledger.Prize = range amounts {
				for _, in.Journal.PaidHere = range bools {
					for _, in.Journal.ClaimedHere = range bools {
						for _, in.Journal.DayPayouts = range amounts[:2] {
							for _, in.Journal.StartedAfresh = range bools {
								for _, in.Journal.Unconfirmed = range amounts[:2] {
									for exp := range exposureEnd + 1 {
										in.Journal.Exposure = exp
										everyLimitAndAnswer(in, f)
									}
								}
							}
						}
					}
				}
			}
		}
	}
}

func everyLimitAndAnswer(in Input, f func(Input)) {
	for _, in.Limits.PerTicket = range []int64{1, 2} {
		in.Limits.PerDay, in.Limits.OfflineTotal = 2, 2 // the sums run 1..3: below, at, above
		for _, in.Limits.OfflinePerTicket = range []int64{1, 2} {
			for fl := range fleetEnd + 1 {
				in.Fleet = fl
				f(in)
			}
		}
	}
}

// TestDecideEveryCombination checks Decide against the oracle and the invariants on the
// cross product of the inputs, and that the product reaches every reason.
func TestDecideEveryCombination(t *testing.T) {
	seen := map[Reason]int{}
	n, bad := 0, 0
	everyInput(func(in Input) {
		n++
		got, want := Decide(in), oracle(in)
		seen[got.Reason]++
		if got != want && bad < 20 {
			bad++
			t.Errorf("Decide(%+v) = %v, oracle says %v", in, got, want)
		}
		if err := paysOnlyWithin(in, got); err != "" && bad < 20 {
			bad++
			t.Errorf("%v on %+v: %s", got, in, err)
		}
	})
	for r := Reason(1); r < decideEnd; r++ {
		if seen[r] == 0 {
			t.Errorf("no combination gives %v", r)
		}
	}
	for r := decideEnd; r < reasonEnd; r++ {
		if seen[r] != 0 {
			t.Errorf("%d combinations give %v, the terminal's own refusal", seen[r], r)
		}
	}
	t.Logf("%d combinations, %d reasons", n, len(seen))
}

// paysOnlyWithin states the invariants without the oracle: what is paid (or offered) is a
// genuine winner of a listed pack, not paid or claimed here, within the limits per ticket
// and per day, confirmed by the fleet when there is one or else within the offline limit.
func paysOnlyWithin(in Input, d Decision) string {
	if d.Action != Pay && d.Action != Ask {
		return ""
	}
	j, l, p := in.Journal, in.Limits, in.Ledger.Prize
	switch {
	case in.Ledger.Pack != PackListed || in.Ledger.Lookup != LookupWinner || p <= 0:
		return "not a winner"
	case j.PaidHere || j.ClaimedHere:
		return "paid or claimed here before"
	case p > l.PerTicket || j.DayPayouts+p > l.PerDay:
		return "above the pay limits"
	case d.Action == Ask && in.Fleet != FleetNotAsked:
		return "asks a fleet that answered"
	case d.Action == Pay && in.Fleet != FleetNone && in.Fleet != FleetWon && d.Reason != Unconfirmed:
		return "pays confirmed without the claim"
	case d.Reason == Unconfirmed && p > l.OfflinePerTicket:
		return "pays unconfirmed above the offline limit"
	}
	return ""
}

func winner(prize int64) Input {
	return Input{
		Ledger:  Ledger{Lookup: LookupWinner, Prize: prize},
		Journal: Journal{DayPayouts: 100_00, Unconfirmed: 50_00, Exposure: ExposureKnown},
		Limits:  Limits{PerTicket: 150_00, PerDay: 5_000_00, OfflinePerTicket: 30_00, OfflineTotal: 100_00},
		Fleet:   FleetWon,
	}
}

// TestDecideReasons names one case for every reason.
func TestDecideReasons(t *testing.T) {
	with := func(in Input, f func(*Input)) Input { f(&in); return in }
	w := winner(20_00)
	for _, c := range []struct {
		name string
		in   Input
		want Decision
	}{
		{"winner, fleet won", w, Decision{Pay, Winner}},
		{"winner, no fleet", with(w, func(in *Input) { in.Fleet = FleetNone }), Decision{Pay, Winner}},
		{"winner, no fleet, up to the limit per ticket", with(winner(150_00), func(in *Input) { in.Fleet = FleetNone }), Decision{Pay, Winner}},
		{"fleet out of reach, within the offline limits", with(w, func(in *Input) { in.Fleet = FleetUnreachable }), Decision{Pay, Unconfirmed}},
		{"offline only, within the offline limit", with(w, func(in *Input) { in.Fleet = FleetOfflineOnly }), Decision{Pay, Unconfirmed}},
		{"offline only, a journal started afresh", with(w, func(in *Input) { in.Fleet, in.Journal.StartedAfresh = FleetOfflineOnly, true }), Decision{Pay, Unconfirmed}},
		{"fleet out of reach, untracked total", with(w, func(in *Input) { in.Fleet, in.Journal.Exposure = FleetUnreachable, ExposureUntracked }), Decision{Pay, Unconfirmed}},
		{"fleet not asked", with(w, func(in *Input) { in.Fleet = FleetNotAsked }), Decision{Ask, AskFleet}},
		{"above the limit per ticket", winner(150_01), Decision{Claim, OverTicketLimit}},
		{"above the limit per day", with(w, func(in *Input) { in.Journal.DayPayouts = 4_980_01 }), Decision{Claim, OverDayLimit}},
		{"at the limit per day", with(w, func(in *Input) { in.Journal.DayPayouts = 4_980_00 }), Decision{Pay, Winner}},
		{"claimed here", with(w, func(in *Input) { in.Journal.ClaimedHere = true }), Decision{Claim, ClaimedHere}},
		{"loser", Input{Ledger: Ledger{Lookup: LookupLoser}}, Decision{Refuse, Loser}},
		{"winner of nothing", winner(0), Decision{Refuse, Loser}},
		{"void pack", with(w, func(in *Input) { in.Ledger.Pack = PackVoid }), Decision{Refuse, VoidPack}},
		{"stolen pack", with(w, func(in *Input) { in.Ledger.Pack = PackStolen }), Decision{Refuse, StolenPack}},
		{"no ledger", Input{}, Decision{Refuse, NoLedger}},
		{"unknown block", Input{Ledger: Ledger{Lookup: LookupUnknownBlock}}, Decision{Refuse, UnknownBlock}},
		{"forged", Input{Ledger: Ledger{Lookup: LookupForged}}, Decision{Refuse, Forged}},
		{"out of range", Input{Ledger: Ledger{Lookup: LookupOutOfRange}}, Decision{Refuse, OutOfRange}},
		{"ledger tampered", Input{Ledger: Ledger{Lookup: LookupTampered, Prize: 10}}, Decision{Refuse, LedgerTampered}},
		{"paid here, even above the limits", with(winner(1_000_00), func(in *Input) { in.Journal.PaidHere, in.Journal.ClaimedHere = true, true }), Decision{Refuse, PaidHere}},
		{"paid elsewhere", with(w, func(in *Input) { in.Fleet = FleetPaidElsewhere }), Decision{Refuse, PaidElsewhere}},
		{"paid before a reset", with(w, func(in *Input) { in.Fleet = FleetPaidBefore }), Decision{Refuse, PaidBeforeReset}},
		{"offline above the offline limit", with(winner(30_01), func(in *Input) { in.Fleet = FleetUnreachable }), Decision{Refuse, OfflineOverLimit}},
		{"offline only above the offline limit", with(winner(30_01), func(in *Input) { in.Fleet = FleetOfflineOnly }), Decision{Refuse, OfflineOverLimit}},
		{"offline after a reset", with(w, func(in *Input) { in.Fleet, in.Journal.StartedAfresh = FleetUnreachable, true }), Decision{Refuse, OfflineAfterReset}},
		{"offline after a reset, above the offline limit", with(winner(30_01), func(in *Input) { in.Fleet, in.Journal.StartedAfresh = FleetUnreachable, true }), Decision{Refuse, OfflineOverLimit}},
		{"offline total passed", with(w, func(in *Input) { in.Fleet, in.Journal.Unconfirmed = FleetUnreachable, 80_01 }), Decision{Refuse, OfflineOverTotal}},
		{"offline total reached", with(w, func(in *Input) { in.Fleet, in.Journal.Unconfirmed = FleetUnreachable, 80_00 }), Decision{Pay, Unconfirmed}},
		{"offline total unreadable", with(w, func(in *Input) { in.Fleet, in.Journal.Exposure = FleetUnreachable, ExposureUnreadable }), Decision{Refuse, OfflineOverTotal}},
		{"refused by the fleet", with(w, func(in *Input) { in.Fleet = FleetRefused }), Decision{Refuse, RefusedByFleet}},
		{"claim failed", with(w, func(in *Input) { in.Fleet = FleetFailed }), Decision{Refuse, ClaimFailed}},
		{"unknown fleet answer", with(w, func(in *Input) { in.Fleet = fleetEnd }), Decision{Refuse, ClaimFailed}},
		{"day total overflows", with(winner(1), func(in *Input) { in.Journal.DayPayouts, in.Limits.PerDay = math.MaxInt64, math.MaxInt64 }), Decision{Claim, OverDayLimit}},
		{"offline total overflows", with(winner(1), func(in *Input) {
			in.Fleet, in.Journal.Unconfirmed, in.Limits.OfflineTotal = FleetUnreachable, math.MaxInt64, math.MaxInt64
		}), Decision{Refuse, OfflineOverTotal}},
	} {
		if got := Decide(c.in); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
		if got := oracle(c.in); got != c.want {
			t.Errorf("%s: the oracle says %v, want %v", c.name, got, c.want)
		}
	}
}

// TestReasonNames: the machine names are the journal's refusal reasons: stable, distinct.
func TestReasonNames(t *testing.T) {
	seen := map[string]Reason{}
	for r := Reason(1); r < reasonEnd; r++ {
		n := r.String()
		if n == "" || seen[n] != 0 {
			t.Errorf("reason %d: name %q empty or taken by %d", r, n, seen[n])
		}
		seen[n] = r
	}
	for r, want := range map[Reason]string{PaidHere: "already-paid", OfflineOverLimit: "fleet-offline", RefusedByFleet: "fleet-refused",
		OfflineOverTotal: "offline-total", VoidPack: "void-pack", LedgerTampered: "ledger-tampered",
		Invalid: "invalid", Locked: "locked"} {
		if r.String() != want {
			t.Errorf("%d: %q, want %q (written in journals)", r, r.String(), want)
		}
	}
}

func BenchmarkDecide(b *testing.B) {
	in := winner(20_00)
	in.Fleet = FleetUnreachable
	for b.Loop() {
		if Decide(in).Action != Pay {
			b.Fatal("not paid")
		}
	}
}
