package main

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/packterm/pos/internal/testblock"
	"github.com/packterm/pos/validate/block"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/game"
	"github.com/packterm/pos/validate/journal"
	"github.com/packterm/pos/validate/settle"
)

// TestRetailerPaysLoserAndInflates is issue 29's path 3, end to end, in the retailer's
// shoes: root on their own terminal R1, its fleet credentials and the tickets they
// scratched. Through the real embedded NATS JetStream, R1 claims in its own name and
// publishes payouts of a losing ticket's real code at 150 €, of a real 2 € winner at
// 150 €, of a ticket of a block no manifest covers, and of a genuine winner it never
// claimed; and one genuine, claimed payout. Before, fleet settle checked only codes: the
// first two passed (their codes are real) and fleet report counted all five in its
// total. Now settle and report flag each with its reason, terminal and record, put them
// in the flagged total, exit 3, and --json carries them.
func TestRetailerPaysLoserAndInflates(t *testing.T) {
	data, creds, url := startFleet(t, [][]string{{"R1", "5"}})
	// Block 7 as the operator made it (posctl ledger gen): its manifest records the seed.
	dir := t.TempDir()
	defFile := writeTemp(t, "two-euro.json", []byte(testblock.TwoEuroDefinition), 0o600)
	keys, blocks := filepath.Join(dir, "keys"), filepath.Join(dir, "blocks")
	seed := block.Seed{2, 9}
	if o, err := runFresh(t, "keys", "gen", "--out", keys); err != nil {
		t.Fatalf("%v\n%s", err, o)
	}
	if o, err := runFresh(t, "ledger", "gen", "--key", filepath.Join(keys, "operator.key"), "--block", "7", "--seed", seed.String(),
		"--definition", defFile, "--out", blocks); err != nil {
		t.Fatalf("%v\n%s", err, o)
	}
	// What the retailer knows of their tickets: the scratched play says which loses and
	// which wins 2 €; the code is on the ticket. (The test reads both from the plan.)
	def, _ := game.ParseSource([]byte(testblock.TwoEuroDefinition))
	plan, err := block.NewPlan(def, 7, seed)
	if err != nil {
		t.Fatal(err)
	}
	var loser, two, other, genuine codes.TicketID
	for pack := range 8 {
		for pos := 1; pos <= 8; pos++ {
			id := codes.TicketID{Block: 7, Pack: uint32(pack), Position: uint8(pos)}
			_, lot, _ := plan.Prize(id)
			switch {
			case lot == 0 && loser.Block == 0:
				loser = id
			case lot == game.Euros(2) && two.Block == 0:
				two = id
			case lot > game.Euros(2) && genuine.Block == 0:
				genuine = id
			case lot > game.Euros(2) && other.Block == 0:
				other = id
			}
		}
	}
	code := func(id codes.TicketID) string {
		var s [codes.SecretSize]byte
		seed.Secrets([]codes.TicketID{id}, func(_ codes.TicketID, x [codes.SecretSize]byte) { s = x })
		return codes.ValidationCodeOf(id, s).String()
	}
	prize := func(id codes.TicketID) int64 { _, lot, _ := plan.Prize(id); return int64(lot) }
	unknown := codes.TicketID{Block: 9, Pack: 3, Position: 2}

	j, c := fleetTerminal(t, url, creds, "R1")
	bg := context.Background()
	pay := func(id codes.TicketID, code string, cents int64, claim bool) string {
		if claim {
			c.Claim(bg, id, cents) // as posd does before paying; the service may refuse
		}
		r, err := j.Append(journal.Entry{Kind: journal.KindPayout, Ticket: id, Game: int(id.Position), Amount: cents, Code: code})
		if err != nil {
			t.Fatal(err)
		}
		return r.ID()
	}
	pay(genuine, code(genuine), prize(genuine), true)
	recLoser := pay(loser, code(loser), 15000, true)
	recTwo := pay(two, code(two), 15000, true)
	recUnknown := pay(unknown, codes.ValidationCodeOf(unknown, [codes.SecretSize]byte{1}).String(), 500, true)
	recUnclaimed := pay(other, code(other), prize(other), false)
	if err := c.Sync(bg); err != nil {
		t.Fatal(err)
	}

	want := map[string]string{recLoser: settle.ReasonLoserPaid, recTwo: settle.ReasonInflated,
		recUnknown: settle.ReasonUnknownTicket, recUnclaimed: settle.ReasonNotClaimed}
	out, err := runNet(t, "fleet", "settle", "--manifest", blocks, "--definition", defFile, "--data", data, "--url", url, "--json")
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != exitFlagged {
		t.Fatalf("settle: %v\n%s", err, out)
	}
	var sj struct {
		Flagged    bool
		Settlement settle.Settlement
	}
	if err := json.Unmarshal([]byte(out), &sj); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	checkFlagged(t, "settle", sj.Flagged, &sj.Settlement, want)
	if sj.Settlement.Totals.Proven != 1 || sj.Settlement.Totals.ProvenAmount != prize(genuine) ||
		sj.Settlement.Totals.FlaggedAmount != 15000+15000+500+prize(other) {
		t.Errorf("settle totals %+v", sj.Settlement.Totals)
	}
	if strings.Contains(out, code(loser)) || strings.Contains(out, code(two)) {
		t.Error("a validation code in the output")
	}

	out, err = runNet(t, "fleet", "report", "--manifest", filepath.Join(blocks, block.ManifestFileName(7)), "--definition", defFile,
		"--data", data, "--url", url, "--json")
	if !errors.As(err, &ee) || ee.code != exitFlagged {
		t.Fatalf("report: %v\n%s", err, out)
	}
	var rj struct {
		Flagged    bool
		Report     settle.Report
		Settlement settle.Settlement
	}
	if err := json.Unmarshal([]byte(out), &rj); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	checkFlagged(t, "report", rj.Flagged, &rj.Settlement, want)
	byBlock := map[uint16]int64{}
	for _, r := range rj.Report.Rows {
		byBlock[r.Block] += r.FlaggedAmount
	}
	if byBlock[7] != 15000+15000+prize(other) || byBlock[9] != 500 {
		t.Errorf("report rows %+v", rj.Report.Rows)
	}
}

// checkFlagged: every record of want is flagged for its reason, as R1's, and the genuine
// payout is not.
func checkFlagged(t *testing.T, what string, flagged bool, s *settle.Settlement, want map[string]string) {
	t.Helper()
	if !flagged || len(s.Flagged) != len(want) {
		t.Fatalf("%s: flagged %v, %+v", what, flagged, s.Flagged)
	}
	for _, p := range s.Flagged {
		if p.Terminal != "R1" || !p.Has(want[p.Record]) {
			t.Errorf("%s: %+v, want %s", what, p, want[p.Record])
		}
	}
}
