package settle

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/packterm/pos/validate/block"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/journal"
)

// payAt is a payout entry of ticket id with its true code (or secret s), amount cents.
func payAt(id codes.TicketID, s [codes.SecretSize]byte, cents int64) journal.Entry {
	return journal.Entry{Kind: journal.KindPayout, Ticket: id, Game: int(id.Position), Amount: cents,
		Code: codes.ValidationCodeOf(id, s)}
}

// claimsOf claims every payout of recs for its own terminal, as the claim service would.
func claimsOf(recs []journal.Record) map[codes.TicketID]string {
	out := map[codes.TicketID]string{}
	for _, r := range recs {
		if r.Kind == journal.KindPayout {
			out[r.Ticket] = r.Terminal
		}
	}
	return out
}

// flagged returns the flagged payout of record id, or fails.
func flagged(t *testing.T, s *Settlement, id string) Payout {
	t.Helper()
	for _, p := range s.Flagged {
		if p.Record == id {
			return p
		}
	}
	t.Fatalf("record %s not flagged; flagged: %+v", id, s.Flagged)
	return Payout{}
}

// TestRetailerMintsThroughOwnTerminal is issue 29's path 3 in the retailer's shoes: with
// their own terminal's journal (and credentials, so their payouts are claimed in their
// name), they pay a losing ticket they scratched with its real code at 150 €, and a real
// 2 € winner at 150 €. Before settlement compared amounts with prizes, both passed as
// genuine (their codes are the true ones) and counted in the totals. Settlement flags
// each with its reason, terminal and record, and moves them to "flagged".
func TestRetailerMintsThroughOwnTerminal(t *testing.T) {
	tb := newTestBlock(t)
	const euros150 = 15000
	recs := journalRecords(t, "R1", []journal.Entry{
		payAt(tb.winner, trueSecret(t, tb.winner), tb.prize(tb.winner)), // R1/1 genuine
		payAt(tb.loser, trueSecret(t, tb.loser), euros150),              // R1/2 a loser, real code
		payAt(tb.two, trueSecret(t, tb.two), euros150),                  // R1/3 a 2 € winner, real code
	})
	s, err := Settle(recs, tb.truth(t), claimsOf(recs))
	if err != nil {
		t.Fatal(err)
	}
	if s.Clean() || len(s.Flagged) != 2 {
		t.Fatalf("flagged %+v", s.Flagged)
	}
	loser, two := flagged(t, s, "R1/2"), flagged(t, s, "R1/3")
	if loser.Terminal != "R1" || !loser.Has(ReasonLoserPaid) || len(loser.Flags) != 1 || loser.Prize != 0 || !loser.PrizeKnown {
		t.Errorf("loser paid: %+v", loser)
	}
	if two.Terminal != "R1" || !two.Has(ReasonInflated) || len(two.Flags) != 1 || two.Prize != 200 {
		t.Errorf("inflated 2 € winner: %+v", two)
	}
	tt := s.Totals
	if tt.Payouts != 3 || tt.Proven != 1 || tt.ProvenAmount != tb.prize(tb.winner) || tt.Flagged != 2 ||
		tt.FlaggedAmount != 2*euros150 || tt.Excess != 2*euros150-200 || tt.ByReason[ReasonLoserPaid] != 1 || tt.ByReason[ReasonInflated] != 1 {
		t.Errorf("totals %+v", tt)
	}
	// The report moves them out of the proven payouts too.
	rep := BuildSettled(recs, func(string) (uint32, bool) { return 1, true }, s)
	if r := rep.Rows[0]; r.Payouts != 3 || r.Flagged != 2 || r.FlaggedAmount != 2*euros150 {
		t.Errorf("report row %+v", r)
	}
}

// TestSettleClassifies: one payout per reason, each flagged with exactly its reasons and
// the detail the operator needs.
func TestSettleClassifies(t *testing.T) {
	tb := newTestBlock(t)
	w, two := tb.winner, tb.two
	prize := tb.prize(w)
	wrong := trueSecret(t, w)
	wrong[3] ^= 0x10
	a := journalRecords(t, "TA", []journal.Entry{
		payAt(w, trueSecret(t, w), prize),                                                 // TA/1 genuine, but TB pays it too
		payAt(two, wrong, 200),                                                            // TA/2 right amount, wrong secret
		payAt(codes.TicketID{Block: 9, Pack: 1, Position: 1}, wrong, 500),                 // TA/3 block without manifest
		payAt(codes.TicketID{Block: 7, Pack: 8, Position: 1}, wrong, 500),                 // TA/4 past the block's packs
		payAt(tb.loser, wrong, 100),                                                       // TA/5
		{Kind: journal.KindSale, Ticket: codes.TicketID{Block: 7, Pack: 3}, Amount: 1000}, // TA/6 not a payout
	})
	// TB pays TA's proven ticket again (conflict), and a winner below its prize, never claimed.
	var under codes.TicketID
	for pack := range 8 {
		for pos := 1; pos <= 8; pos++ {
			id := codes.TicketID{Block: 7, Pack: uint32(pack), Position: uint8(pos)}
			if tb.prize(id) > 100 && id != w && id != two {
				under = id
			}
		}
	}
	b := journalRecords(t, "TB", []journal.Entry{
		payAt(w, trueSecret(t, w), prize),       // TB/1 conflict (and its claim is TA's)
		payAt(under, trueSecret(t, under), 100), // TB/2 wrong amount, not claimed
	})
	// TA/7: as a doctored terminal could publish it, TA/2 with the code of another ticket
	// (the journal refuses to append one).
	doctored := a[1]
	doctored.Seq, doctored.Hash[0] = 7, doctored.Hash[0]^1
	doctored.Code = codes.ValidationCodeOf(w, trueSecret(t, w))
	recs := append(append([]journal.Record{}, a...), append(b, doctored)...)
	claims := claimsOf(a)
	claims[two] = "TA"
	claims[w] = "TA"
	s, err := Settle(recs, tb.truth(t), claims)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"TA/1": {ReasonConflict},
		"TA/2": {ReasonWrongCode, ReasonConflict},
		"TA/3": {ReasonUnknownTicket},
		"TA/4": {ReasonUnknownTicket},
		"TA/5": {ReasonLoserPaid, ReasonWrongCode},
		"TB/1": {ReasonNotClaimed, ReasonConflict},
		"TB/2": {ReasonWrongAmount, ReasonNotClaimed},
		"TA/7": {ReasonWrongCode, ReasonConflict},
	}
	if len(s.Flagged) != len(want) {
		t.Fatalf("flagged %+v", s.Flagged)
	}
	for id, reasons := range want {
		p := flagged(t, s, id)
		if len(p.Flags) != len(reasons) {
			t.Errorf("%s: flags %+v, want %v", id, p.Flags, reasons)
		}
		for _, r := range reasons {
			if !p.Has(r) {
				t.Errorf("%s: flags %+v, want %v", id, p.Flags, reasons)
			}
		}
	}
	if p := flagged(t, s, "TA/2"); p.Flags[0].Detail != "wrong secret" {
		t.Errorf("TA/2 %+v", p.Flags)
	}
	if p := flagged(t, s, "TA/7"); p.Flags[0].Detail != "code of another ticket" {
		t.Errorf("TA/7 %+v", p.Flags)
	}
	if p := flagged(t, s, "TB/1"); !strings.Contains(p.Flags[0].Detail, "held by terminal TA") || !strings.Contains(p.Flags[1].Detail, "TA/1") {
		t.Errorf("TB/1 %+v", p.Flags)
	}
	if s.Totals.Payouts != 8 || s.Totals.Proven != 0 || s.Totals.Flagged != 8 {
		t.Errorf("totals %+v", s.Totals)
	}
}

// TestSettleForkAndUnclaimed: a record id published with two contents (a journal
// replaced: the new one pays again from 1) is a fork on both; a genuine payout the claims
// bucket lacks is flagged not-claimed; the same record published twice counts once.
func TestSettleForkAndUnclaimed(t *testing.T) {
	tb := newTestBlock(t)
	w := tb.winner
	first := journalRecords(t, "TA", []journal.Entry{payAt(w, trueSecret(t, w), tb.prize(w))})
	second := journalRecords(t, "TA", []journal.Entry{payAt(tb.two, trueSecret(t, tb.two), 200)})
	recs := append(append(append([]journal.Record{}, first...), second...), first...)
	s, err := Settle(recs, tb.truth(t), map[codes.TicketID]string{w: "TA"})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Forks) != 1 || s.Forks[0] != "TA/1" || s.Totals.Payouts != 2 || len(s.Flagged) != 2 {
		t.Fatalf("forks %v, totals %+v, flagged %+v", s.Forks, s.Totals, s.Flagged)
	}
	for _, p := range s.Flagged {
		if !p.Has(ReasonFork) || (p.ID == tb.two) != p.Has(ReasonNotClaimed) {
			t.Errorf("%+v", p)
		}
	}
	// Without the fork, a genuine, claimed payout is proven.
	s, _ = Settle(first, tb.truth(t), map[codes.TicketID]string{w: "TA"})
	if !s.Clean() || s.Totals.Proven != 1 {
		t.Fatalf("genuine payout: %+v", s)
	}
}

// TestSettlementOutputs: the text and JSON carry every flagged payout with its terminal,
// record and reasons, and never a validation code.
func TestSettlementOutputs(t *testing.T) {
	tb := newTestBlock(t)
	code := codes.ValidationCodeOf(tb.loser, trueSecret(t, tb.loser)).String()
	recs := journalRecords(t, "R1", []journal.Entry{payAt(tb.loser, trueSecret(t, tb.loser), 15000)})
	s, err := Settle(recs, tb.truth(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	s.WriteText(&out)
	for _, want := range []string{"FLAGGED PAYOUTS: 1", "R1/1", "terminal R1", "loser-paid", "not-claimed", "150,00", "flagged:       1 payouts"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, out.String())
		}
	}
	js, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var back struct {
		Blocks []int `json:"blocks"`
		Totals struct {
			Flagged       int   `json:"flagged"`
			FlaggedAmount int64 `json:"flagged_amount_cents"`
		} `json:"totals"`
		Flagged []struct {
			Record, Terminal, Ticket string
			Amount                   int64 `json:"amount_cents"`
			Flags                    []Flag
		} `json:"flagged"`
		Forks []string `json:"forks"`
	}
	if err := json.Unmarshal(js, &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Flagged) != 1 || back.Flagged[0].Record != "R1/1" || back.Flagged[0].Terminal != "R1" || back.Flagged[0].Ticket != tb.loser.String() ||
		back.Flagged[0].Flags[0].Reason != ReasonLoserPaid || back.Totals.Flagged != 1 || back.Totals.FlaggedAmount != 15000 || back.Forks == nil {
		t.Fatalf("JSON %s", js)
	}
	if strings.Contains(out.String(), code) || strings.Contains(string(js), code) {
		t.Fatal("a validation code in the settlement")
	}
}

// TestTruthChecksDefinition: a definition other than the block's is refused before any
// payout is judged (by hash, pack count, design patterns or the design's digest), and so
// are two manifests of one block; the plan is built once.
func TestTruthChecksDefinition(t *testing.T) {
	tb := newTestBlock(t)
	m := Manifest{Block: 7, Seed: seed, Packs: 8, Patterns: len(tb.plan.Design.Patterns), DefinitionSHA256: block.DefinitionSHA256(tb.def)}
	other := tb.def.Clone()
	other.PackPrice++
	for _, bl := range [][]Block{
		{{Manifest: m, Def: other}},
		{{Manifest: Manifest{Block: 7, Seed: seed, Packs: 1500000}, Def: tb.def}},
		{{Manifest: m, Def: tb.def}, {Manifest: Manifest{Block: 7, Seed: block.Seed{1}}, Def: tb.def}},
		{{Manifest: m}},
	} {
		if _, err := NewTruth(bl...); !errors.Is(err, ErrDefinition) && !errors.Is(err, ErrBlocks) {
			t.Errorf("%+v: %v", bl, err)
		}
	}
	tr, err := NewTruth(Block{Manifest: Manifest{Block: 7, Seed: seed, Patterns: 999}, Def: tb.def})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tr.Plan(7); !errors.Is(err, ErrDefinition) {
		t.Errorf("patterns differ: %v", err)
	}
	// The same number of patterns, another design (a manifest of another architecture's
	// solve): refused by the design's digest; the right digest is taken.
	wrong := m
	wrong.DesignSHA256 = strings.Repeat("0", 64)
	if tr, err = NewTruth(Block{Manifest: wrong, Def: tb.def}); err != nil {
		t.Fatal(err)
	}
	if _, err := tr.Plan(7); !errors.Is(err, ErrDefinition) {
		t.Errorf("design differs: %v", err)
	}
	right := m
	right.DesignSHA256 = tb.plan.DesignSHA256()
	if tr, err = NewTruth(Block{Manifest: right, Def: tb.def}); err != nil {
		t.Fatal(err)
	}
	if _, err := tr.Plan(7); err != nil {
		t.Errorf("the block's own design: %v", err)
	}
	// The same digest written in upper case, read through ReadManifest, is the same digest.
	upper := fmt.Sprintf(`{"block": 7, "seed": %q, "packs": 8, "design_patterns": %d, "design_sha256": %q}`,
		seed.String(), len(tb.plan.Design.Patterns), strings.ToUpper(tb.plan.DesignSHA256()))
	read, err := ReadManifest(strings.NewReader(upper))
	if err != nil {
		t.Fatal(err)
	}
	if tr, err = NewTruth(Block{Manifest: read, Def: tb.def}); err != nil {
		t.Fatal(err)
	}
	if _, err := tr.Plan(7); err != nil {
		t.Errorf("the block's own design, its digest in upper case: %v", err)
	}
	tr = tb.truth(t)
	p1, err1 := tr.Plan(7)
	p2, err2 := tr.Plan(7)
	if err1 != nil || err2 != nil || p1 != p2 {
		t.Fatalf("plan not kept: %v %v", err1, err2)
	}
}
