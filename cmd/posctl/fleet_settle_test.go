package main

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/packterm/pos/device/fleet"
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
// total. Now the claim service, holding the block's ledger, refuses the three claims
// (loser, amount, unknown-block: path 2), and settle and report still flag each payout
// R1 journals regardless with its reason, terminal and record, put them in the flagged
// total, exit 3, and --json carries them.
func TestRetailerPaysLoserAndInflates(t *testing.T) {
	// Block 7 as the operator made it (posctl ledger gen): its manifest records the seed,
	// the claim service holds its ledger.
	seed := block.Seed{2, 9}
	blk := newOperatorBlock(t, testblock.TwoEuroDefinition, 7, seed)
	data, creds, url := startFleet(t, [][]string{{"R1", "5"}}, blk.Service(t))
	// R1's retailer has block 7's packs, and pack 3 of block 9, whose ledger the service
	// does not hold.
	blk.PublishStatus(t, data, url, 5, "7:0-7", "9:3")
	// What the retailer knows of their tickets: the scratched play says which loses and
	// which wins 2 €; the code is on the ticket. (The test reads both from the plan.)
	var loser, two, other, genuine codes.TicketID
	for pack := range 8 {
		for pos := 1; pos <= 8; pos++ {
			id := codes.TicketID{Block: 7, Pack: uint32(pack), Position: uint8(pos)}
			lot := blk.Prize(id)
			switch {
			case lot == 0 && loser.Block == 0:
				loser = id
			case lot == int64(game.Euros(2)) && two.Block == 0:
				two = id
			case lot > int64(game.Euros(2)) && genuine.Block == 0:
				genuine = id
			case lot > int64(game.Euros(2)) && other.Block == 0:
				other = id
			}
		}
	}
	code := func(id codes.TicketID) string { return blk.Code(id).String() }
	unknown := codes.TicketID{Block: 9, Pack: 3, Position: 2}
	unknownCode := codes.ValidationCodeOf(unknown, [codes.SecretSize]byte{1})

	j, c := fleetTerminal(t, data, url, creds, "R1")
	bg := context.Background()
	pay := func(id codes.TicketID, code string, cents int64) string {
		vc, err := codes.ParseValidation(code)
		if err != nil {
			t.Fatal(err)
		}
		r, err := j.Append(journal.Entry{Kind: journal.KindPayout, Ticket: id, Game: int(id.Position), Amount: cents, Code: vc})
		if err != nil {
			t.Fatal(err)
		}
		return r.ID()
	}
	// As posd does before paying: the genuine claim is the terminal's, the service
	// refuses the other three, whose payouts R1 journals all the same.
	if _, err := c.Claim(bg, blk.Code(genuine), blk.Prize(genuine)); err != nil {
		t.Fatalf("genuine claim: %v", err)
	}
	for _, cl := range []struct {
		code   codes.ValidationCode
		cents  int64
		reason string
	}{
		{blk.Code(loser), 15000, fleet.RefusedLoser},
		{blk.Code(two), 15000, fleet.RefusedAmount},
		{unknownCode, 500, fleet.RefusedUnknownBlock},
	} {
		var refused *fleet.RefusedError
		if _, err := c.Claim(bg, cl.code, cl.cents); !errors.As(err, &refused) || refused.Reason != cl.reason {
			t.Errorf("claim of %v at %d cents: %v, want refused %s", cl.code.ID(), cl.cents, err, cl.reason)
		}
	}
	recGenuine := pay(genuine, code(genuine), blk.Prize(genuine))
	recLoser := pay(loser, code(loser), 15000)
	recTwo := pay(two, code(two), 15000)
	recUnknown := pay(unknown, unknownCode.String(), 500)
	recUnclaimed := pay(other, code(other), blk.Prize(other))
	if err := c.Sync(bg); err != nil {
		t.Fatal(err)
	}

	// Every refused claim's payout is also not claimed.
	want := map[string][]string{recLoser: {settle.ReasonLoserPaid, settle.ReasonNotClaimed},
		recTwo: {settle.ReasonInflated, settle.ReasonNotClaimed}, recUnknown: {settle.ReasonUnknownTicket, settle.ReasonNotClaimed},
		recUnclaimed: {settle.ReasonNotClaimed}}
	out, err := runNet(t, "fleet", "settle", "--manifest", blk.Blocks, "--definition", blk.DefFile, "--data", data, "--url", url, "--json")
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
	if sj.Settlement.Totals.Proven != 1 || sj.Settlement.Totals.ProvenAmount != blk.Prize(genuine) ||
		sj.Settlement.Totals.FlaggedAmount != 15000+15000+500+blk.Prize(other) {
		t.Errorf("settle totals %+v", sj.Settlement.Totals)
	}
	if strings.Contains(out, code(loser)) || strings.Contains(out, code(two)) {
		t.Error("a validation code in the output")
	}

	out, err = runNet(t, "fleet", "report", "--manifest", blk.Manifest, "--definition", blk.DefFile,
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
	if byBlock[7] != 15000+15000+blk.Prize(other) || byBlock[9] != 500 {
		t.Errorf("report rows %+v", rj.Report.Rows)
	}

	// Issue 47: with the operator's limits for R1 (2 € a ticket), the genuine payout,
	// claimed and true, is flagged above the limit; the limits file is read strictly.
	limits := writeTemp(t, "limits.json", []byte(`{"terminals": {"R1": {"pay_per_ticket_cents": 200, "pay_per_day_cents": 100000}}}`), 0o644)
	out, err = runNet(t, "fleet", "settle", "--manifest", blk.Blocks, "--definition", blk.DefFile, "--data", data, "--url", url,
		"--limits", limits, "--json")
	if !errors.As(err, &ee) || ee.code != exitFlagged {
		t.Fatalf("settle --limits: %v\n%s", err, out)
	}
	sj = struct {
		Flagged    bool
		Settlement settle.Settlement
	}{}
	if err := json.Unmarshal([]byte(out), &sj); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	want[recGenuine] = []string{settle.ReasonAboveLimit}
	checkFlagged(t, "settle --limits", sj.Flagged, &sj.Settlement, want)
	bad := writeTemp(t, "bad-limits.json", []byte(`{"terminals": {"R1": {"pay_per_ticket_cents": 200}}, "x": 1}`), 0o644)
	if _, err := runNet(t, "fleet", "settle", "--manifest", blk.Blocks, "--data", data, "--url", url, "--limits", bad); !errors.Is(err, settle.ErrLimits) {
		t.Errorf("a bad limits file: %v", err)
	}
}

// checkFlagged: every record of want is flagged for each of its reasons, as R1's, and
// the genuine payout is not.
func checkFlagged(t *testing.T, what string, flagged bool, s *settle.Settlement, want map[string][]string) {
	t.Helper()
	if !flagged || len(s.Flagged) != len(want) {
		t.Fatalf("%s: flagged %v, %+v", what, flagged, s.Flagged)
	}
	for _, p := range s.Flagged {
		reasons, ok := want[p.Record]
		if p.Terminal != "R1" || !ok {
			t.Errorf("%s: %+v flagged", what, p)
		}
		for _, r := range reasons {
			if !p.Has(r) {
				t.Errorf("%s: %+v, want %s", what, p, r)
			}
		}
	}
}
