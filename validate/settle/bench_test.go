package settle

import (
	"math/rand/v2"
	"testing"

	"github.com/packterm/pos/validate/block"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/game"
	"github.com/packterm/pos/validate/journal"
)

// dayOfPayouts is n genuine payouts of winning tickets of a règlement block made from s,
// spread over 100 terminals, each claimed by its payer, as the fleet's stream would hold
// a day of them.
func dayOfPayouts(b *testing.B, s block.Seed, n int) ([]journal.Record, map[codes.TicketID]string, Block) {
	d := game.Reglement()
	plan, err := block.NewPlan(d, 7, s)
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	picked := map[codes.TicketID]int64{}
	ids := make([]codes.TicketID, 0, n)
	for len(ids) < n {
		id := codes.TicketID{Block: 7, Pack: uint32(r.IntN(d.BlockPacks)), Position: uint8(1 + r.IntN(8))}
		if _, lot, _ := plan.Prize(id); lot > 0 && picked[id] == 0 {
			picked[id] = int64(lot)
			ids = append(ids, id)
		}
	}
	secrets := map[codes.TicketID][codes.SecretSize]byte{}
	s.Secrets(ids, func(id codes.TicketID, x [codes.SecretSize]byte) { secrets[id] = x })
	recs := make([]journal.Record, n)
	claims := make(map[codes.TicketID]string, n)
	for i, id := range ids {
		term := "T" + string(rune('A'+i%26)) + string(rune('A'+i/26%4))
		recs[i] = journal.Record{Entry: journal.Entry{Kind: journal.KindPayout, Ticket: id, Game: int(id.Position), Amount: picked[id],
			Code: codes.ValidationCodeOf(id, secrets[id])}, Terminal: term, Seq: uint64(i/104 + 1)}
		recs[i].Hash[0], recs[i].Hash[1], recs[i].Hash[2] = byte(i), byte(i>>8), byte(i>>16)
		claims[id] = term
	}
	m := Manifest{Block: 7, Seed: s, Packs: d.BlockPacks, Patterns: len(plan.Design.Patterns), DefinitionSHA256: block.DefinitionSHA256(d)}
	return recs, claims, Block{Manifest: m, Def: d}
}

// BenchmarkSettleDay: settlement of a day of 100,000 payouts of one règlement block
// (1,500,000 packs): "whole" rebuilds the block's plan from its seed (design and
// placement: the prize re-derivation) and proves every payout; "plan" is the plan alone;
// "payouts" proves the payouts with the plan already built (Truth keeps it per block).
func BenchmarkSettleDay(b *testing.B) {
	if testing.Short() {
		b.Skip("a règlement block")
	}
	const n = 100_000
	recs, claims, bl := dayOfPayouts(b, block.Seed{9, 9}, n)
	check := func(s *Settlement, err error) {
		if err != nil || !s.Clean() || s.Totals.Proven != n {
			b.Fatalf("%v: %+v", err, s.Totals)
		}
	}
	b.Run("whole", func(b *testing.B) {
		for b.Loop() {
			tr, _ := NewTruth(bl)
			check(Settle(recs, tr, claims))
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/payout")
	})
	b.Run("plan", func(b *testing.B) {
		for b.Loop() {
			tr, _ := NewTruth(bl)
			if _, err := tr.Plan(7); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("payouts", func(b *testing.B) {
		tr, _ := NewTruth(bl)
		if _, err := tr.Plan(7); err != nil {
			b.Fatal(err)
		}
		b.ResetTimer()
		for b.Loop() {
			check(Settle(recs, tr, claims))
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/payout")
	})
}
