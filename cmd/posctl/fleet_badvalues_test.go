package main

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/device/fleet/server"
	"github.com/packterm/pos/internal/testblock"
	"github.com/packterm/pos/validate/block"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/game"
	"github.com/packterm/pos/validate/journal"
	"github.com/packterm/pos/validate/settle"
)

// TestFleetBooksReadPastBadValues is issue 46's attack 3: a JetStream acknowledgement
// ({"stream":"JOURNAL","seq":N}) stored as a ticket's claim, an answer stored as a
// retailer's status list, junk in the refusals stream. Before, fleet report and fleet
// settle failed on the claim (exit 1, "strictjson: … bad fleet message") for the whole
// fleet until the bucket was repaired by hand, and nothing checked the status bucket.
// Now each is a finding naming its bucket and key (or stream and sequence), exit 3, and
// the books are computed all the same: the genuine payout is proven.
func TestFleetBooksReadPastBadValues(t *testing.T) {
	blk := newOperatorBlock(t, testblock.TwoEuroDefinition, 7, block.Seed{4, 6})
	data, creds, url := startFleet(t, [][]string{{"R1", "5"}}, blk.Service(t))
	blk.PublishStatus(t, data, url, 5, "7:0-7")
	var genuine codes.TicketID
	for pack := uint32(0); pack < 8 && genuine.Block == 0; pack++ {
		for pos := uint8(1); pos <= 8; pos++ {
			if id := (codes.TicketID{Block: 7, Pack: pack, Position: pos}); blk.Prize(id) >= int64(game.Euros(2)) {
				genuine = id
				break
			}
		}
	}
	j, c := fleetTerminal(t, data, url, creds, "R1")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := c.Claim(ctx, blk.Code(genuine), blk.Prize(genuine)); err != nil {
		t.Fatal(err)
	}
	if _, err := j.Append(journal.Entry{Kind: journal.KindPayout, Ticket: genuine, Game: int(genuine.Position),
		Amount: blk.Prize(genuine), Code: blk.Code(genuine)}); err != nil {
		t.Fatal(err)
	}
	if err := c.Sync(ctx); err != nil {
		t.Fatal(err)
	}

	nc, err := server.ConnectOperator(url, filepath.Join(data, server.OperatorSeedFile), "")
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	st, err := server.OpenStores(ctx, js)
	if err != nil {
		t.Fatal(err)
	}
	ack := []byte(`{"stream":"JOURNAL","seq":1}`)
	junkClaim := fleet.ClaimKey(codes.TicketID{Block: 7, Pack: 6, Position: 1})
	if _, err := st.Claims.Create(ctx, junkClaim, ack); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Status.Put(ctx, server.StatusKey(5), ack); err != nil {
		t.Fatal(err)
	}
	pa, err := js.Publish(ctx, fleet.RefusalPrefix+"R1", ack)
	if err != nil {
		t.Fatal(err)
	}
	wantValues := map[string]bool{"claims " + junkClaim: true, "status " + server.StatusKey(5): true}

	type unread struct {
		Flagged   bool
		Findings  int
		Refused   []refused  `json:"refused_messages"`
		BadValues []badValue `json:"bad_values"`
	}
	check := func(what string, out string, err error, u *unread, s *settle.Settlement) {
		t.Helper()
		var ee *exitError
		if !errors.As(err, &ee) || ee.code != exitFlagged {
			t.Fatalf("%s: %v, want exit %d\n%s", what, err, exitFlagged, out)
		}
		got := map[string]bool{}
		for _, b := range u.BadValues {
			got[b.Bucket+" "+b.Key] = true
		}
		if len(u.BadValues) != 2 || !got["claims "+junkClaim] || !got["status "+server.StatusKey(5)] {
			t.Errorf("%s: bad values %+v, want %v", what, u.BadValues, wantValues)
		}
		if len(u.Refused) != 1 || u.Refused[0].Stream != fleet.RefusalStream || u.Refused[0].Seq != pa.Sequence {
			t.Errorf("%s: refused messages %+v", what, u.Refused)
		}
		if !u.Flagged || u.Findings < 3 {
			t.Errorf("%s: flagged %v, %d findings", what, u.Flagged, u.Findings)
		}
		if s.Totals.Proven != 1 || s.Totals.ProvenAmount != blk.Prize(genuine) || s.Totals.Flagged != 0 {
			t.Errorf("%s: totals %+v, want the genuine payout proven", what, s.Totals)
		}
	}
	var sj struct {
		unread
		Settlement settle.Settlement
	}
	out, err := runNet(t, "fleet", "settle", "--manifest", blk.Blocks, "--definition", blk.DefFile, "--data", data, "--url", url, "--json")
	if jerr := json.Unmarshal([]byte(out), &sj); jerr != nil {
		t.Fatalf("settle: %v %v\n%s", err, jerr, out)
	}
	check("settle", out, err, &sj.unread, &sj.Settlement)
	var rj struct {
		unread
		Settlement settle.Settlement
	}
	out, err = runNet(t, "fleet", "report", "--manifest", blk.Manifest, "--definition", blk.DefFile, "--data", data, "--url", url, "--json")
	if jerr := json.Unmarshal([]byte(out), &rj); jerr != nil {
		t.Fatalf("report: %v %v\n%s", err, jerr, out)
	}
	check("report", out, err, &rj.unread, &rj.Settlement)

	for _, cmd := range []string{"settle", "report"} {
		out, err := runNet(t, "fleet", cmd, "--manifest", blk.Blocks, "--definition", blk.DefFile, "--data", data, "--url", url)
		var ee *exitError
		if !errors.As(err, &ee) || ee.code != exitFlagged {
			t.Fatalf("%s (text): %v\n%s", cmd, err, out)
		}
		for _, want := range []string{`bad value in bucket claims, key "` + junkClaim + `"`, `bad value in bucket status, key "r.5"`, "on refusals.R1"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s (text): no %q in\n%s", cmd, want, out)
			}
		}
	}
}
