package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/nats-io/jwt/v2"
	"github.com/nats-io/nkeys"

	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/device/fleet/server"
	"github.com/packterm/pos/validate/block"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/journal"
)

// TestFleetCommands: add-terminal, serve (the claim service holding block 7's ledger as
// posctl ledger gen made it), publish-status, then two terminals with real journals pay;
// the forged code's claim is refused and listed by fleet refusals (never its code);
// report shows sales, payouts, the unconfirmed payout and the conflict per retailer;
// settle lists the forged payout.
func TestFleetCommands(t *testing.T) {
	// Block 7 of the eight-pack test game, made from seed by the operator: the service
	// holds its ledger, settlement re-derives it from its manifest and definition.
	blk := newOperatorBlock(t, tinyDefinition, 7, block.Seed{3, 1, 4})
	data, creds, url := startFleet(t, [][]string{{"T1", "5"}, {"T2", "6"}}, blk.Service(t))
	if _, err := runNet(t, "fleet", "add-terminal", "--data", data, "--id", "T1", "--retailer", "5", "--out", filepath.Join(creds, "again.nk")); err == nil {
		t.Fatal("a terminal registered twice")
	}
	// Each retailer's status list: the block's eight packs delivered.
	for _, r := range []uint32{5, 6} {
		blk.PublishStatus(t, data, url, r, "7:0-7")
	}
	var winners []codes.TicketID
	for pack := range 8 {
		for pos := 1; pos <= 8; pos++ {
			if id := (codes.TicketID{Block: 7, Pack: uint32(pack), Position: uint8(pos)}); blk.Prize(id) > 0 {
				winners = append(winners, id)
			}
		}
	}
	j1, c1 := fleetTerminal(t, data, url, creds, "T1")
	j2, c2 := fleetTerminal(t, data, url, creds, "T2")
	good, forged := winners[0], winners[1]
	bad := blk.Secret(forged)
	bad[0] ^= 0xff
	pay := func(j *journal.Journal, id codes.TicketID, s [codes.SecretSize]byte, reason string) {
		if _, err := j.Append(journal.Entry{Kind: journal.KindPayout, Ticket: id, Game: int(id.Position), Amount: blk.Prize(id),
			Code: codes.ValidationCodeOf(id, s), Reason: reason}); err != nil {
			t.Fatal(err)
		}
	}
	bg := context.Background()
	j1.Append(journal.Entry{Kind: journal.KindSale, Ticket: codes.TicketID{Block: 7, Pack: good.Pack}, Amount: 4000})
	if _, err := c1.Claim(bg, blk.Code(good), blk.Prize(good)); err != nil {
		t.Fatal(err)
	}
	// The forged code's claim is refused (recorded for posctl fleet refusals); the payout
	// is journalled all the same, as a terminal whose owner bypassed the claim would.
	var refused *fleet.RefusedError
	if _, err := c1.Claim(bg, codes.ValidationCodeOf(forged, bad), blk.Prize(forged)); !errors.As(err, &refused) || refused.Reason != fleet.RefusedWrongCode {
		t.Fatalf("forged code's claim: %v", err)
	}
	pay(j1, good, blk.Secret(good), "")
	pay(j1, forged, bad, "")
	pay(j2, good, blk.Secret(good), journal.ReasonUnconfirmed) // paid while cut off
	for _, c := range []*fleet.Client{c1, c2, c1} {
		if err := c.Sync(bg); err != nil {
			t.Fatal(err)
		}
	}
	// A terminal registered after the start that never sends anything: silent.
	if out, err := runNet(t, "fleet", "add-terminal", "--data", data, "--id", "T3", "--retailer", "6", "--out", filepath.Join(creds, "T3.nk")); err != nil {
		t.Fatalf("add-terminal: %v\n%s", err, out)
	}
	// The conflict and the forged payout are flagged: exit status 3. One line per finding
	// (issue 33: the report printed each conflict on two lines, its two records, besides
	// the bucket's entry; the unclaimed payouts twice, as claim check and as flags).
	out, err := runNet(t, "fleet", "report", "--data", data, "--url", url, "--manifest", blk.Manifest, "--definition", blk.DefFile)
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != exitFlagged {
		t.Fatalf("report: %v\n%s", err, out)
	}
	for _, want := range []string{"fleet report: 6 records", "FINDINGS: 4 (one line each)",
		"journalled T1/4 paid-offline-elsewhere, T2/2 paid-elsewhere",
		"claims: 1; claimed but no payout published: 0; payouts not claimed by their terminal: 2; conflicts: 1",
		"flagged payout T1/3  terminal T1", "wrong-code: wrong secret; not-claimed: no claim in the fleet's claims bucket",
		"terminals: 3 (1 silent: no record received)", "T3           retailer 6       SILENT",
		"T2           retailer 6       last record 2 at ", "unconfirmed not claimed 1 30,00 EUR",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	for what, n := range map[string]int{"also paid offline by T2": 1, "T1/4": 1, "flagged payout T2/1": 1} {
		if got := strings.Count(out, what); got != n {
			t.Errorf("%q shown %d times, want %d:\n%s", what, got, n, out)
		}
	}
	jout, err := runNet(t, "fleet", "report", "--json", "--data", data, "--url", url, "--manifest", blk.Manifest, "--definition", blk.DefFile)
	var rj struct {
		Flagged   bool `json:"flagged"`
		Findings  int  `json:"findings"`
		Terminals []struct {
			Terminal    string `json:"terminal"`
			LastSeq     uint64 `json:"last_seq"`
			Silent      bool   `json:"silent"`
			Unconfirmed int64  `json:"unconfirmed_unclaimed_cents"`
		} `json:"terminals"`
	}
	if !errors.As(err, &ee) || ee.code != exitFlagged || json.Unmarshal([]byte(jout), &rj) != nil || !rj.Flagged || rj.Findings != 4 ||
		len(rj.Terminals) != 3 || rj.Terminals[1].LastSeq != 2 || rj.Terminals[1].Unconfirmed != blk.Prize(good) || !rj.Terminals[2].Silent {
		t.Fatalf("report --json: %v %+v\n%s", err, rj, jout)
	}
	paid := blk.Prize(good) + blk.Prize(forged)
	row := fmt.Sprintf("%-9d %-5d %7d %12s %7d %12s %7d %12s %7d %12s %11d %12s %9d", 5, 7, 1, "40,00", 2, journal.Euros(paid), 2, journal.Euros(paid),
		0, "0,00", 0, "0,00", 1)
	if !strings.Contains(out, row) {
		t.Errorf("retailer 5 row %q:\n%s", row, out)
	}
	out, err = runNet(t, "fleet", "settle", "--manifest", blk.Manifest, "--definition", blk.DefFile, "--data", data, "--url", url)
	if !errors.As(err, &ee) || ee.code != exitFlagged || !strings.Contains(out, "FLAGGED PAYOUTS: 3") || !strings.Contains(out, "wrong-code: wrong secret") {
		t.Fatalf("settle: %v\n%s", err, out)
	}
	// The forged payout: its code is wrong and, its claim refused, nothing claims it.
	forgedFlags := regexp.MustCompile(`flagged payout T1/3  terminal T1 .*\n`).FindString(out)
	if !strings.Contains(forgedFlags, "wrong-code: wrong secret") || !strings.Contains(forgedFlags, "not-claimed: no claim in the fleet's claims bucket") {
		t.Errorf("settle: the forged payout's reasons (one line) %q:\n%s", forgedFlags, out)
	}
	if strings.Contains(out, codes.ValidationCodeOf(forged, bad).String()) {
		t.Fatal("settle printed a validation code")
	}
	// Usage and input errors exit 1, not 3.
	for _, args := range [][]string{
		{"fleet", "settle", "--data", data, "--url", url},
		{"fleet", "settle", "--manifest", filepath.Join(t.TempDir(), "none.json"), "--data", data, "--url", url},
		{"fleet", "settle", "--manifest", blk.Manifest, "--data", data, "--url", url}, // the règlement is not block 7's definition
	} {
		if _, err := runNet(t, args...); err == nil || errors.As(err, &ee) {
			t.Errorf("%v: %v", args, err)
		}
	}
	out, err = runNet(t, "fleet", "refusals", "--data", data, "--url", url)
	if err != nil || !strings.Contains(out, "refused claims: 1") || !strings.Contains(out, "wrong-code") || !strings.Contains(out, "T1") {
		t.Fatalf("refusals: %v\n%s", err, out)
	}
	if strings.Contains(out, codes.ValidationCodeOf(forged, bad).String()) {
		t.Fatal("refusals printed a validation code")
	}
}

// add-terminal --operator-seed makes, for an operator/account (JWT) mode cluster, an
// account of the terminal's own (its JWT in --jwt-dir, signed by the operator, importing
// its subjects from the fleet account) and a .creds file of a user in it with the
// terminal's permissions, registered under the user's public key.
func TestFleetAddTerminalCreds(t *testing.T) {
	data, dir, jwts := t.TempDir(), t.TempDir(), t.TempDir()
	okp, _ := nkeys.CreateOperator()
	seed, _ := okp.Seed()
	opSeed := filepath.Join(dir, "operator.nk")
	if err := os.WriteFile(opSeed, seed, 0o600); err != nil {
		t.Fatal(err)
	}
	fkp, _ := nkeys.CreateAccount()
	fleetPub, _ := fkp.PublicKey()
	out := filepath.Join(dir, "T7.creds")
	o, err := runNet(t, "fleet", "add-terminal", "--data", data, "--id", "T7", "--retailer", "9", "--out", out,
		"--operator-seed", opSeed, "--fleet-account", fleetPub, "--jwt-dir", jwts)
	if err != nil {
		t.Fatalf("add-terminal: %v\n%s", err, o)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	token, err := jwt.ParseDecoratedJWT(b)
	if err != nil {
		t.Fatal(err)
	}
	uc, err := jwt.DecodeUserClaims(token)
	if err != nil {
		t.Fatal(err)
	}
	reg, err := server.LoadRegistry(data)
	if err != nil {
		t.Fatal(err)
	}
	if tm, ok := reg.Terminal("T7"); !ok || tm.NKey != uc.Subject || tm.Retailer != 9 {
		t.Fatalf("registry %+v, JWT subject %s", tm, uc.Subject)
	}
	if !slices.Equal([]string(uc.Pub.Allow), server.TerminalPermissions("T7").Publish.Allow) {
		t.Fatalf("publish permissions %v", uc.Pub.Allow)
	}
	acct, err := os.ReadFile(filepath.Join(jwts, uc.Issuer+".jwt"))
	if err != nil {
		t.Fatalf("the terminal's account JWT: %v", err)
	}
	ac, err := jwt.DecodeAccountClaims(string(acct))
	if err != nil || ac.Name != server.TerminalAccount("T7") || len(ac.Imports) != len(server.TerminalImports("T7")) {
		t.Fatalf("account %v %+v", err, ac)
	}
	if _, err := runNet(t, "fleet", "add-terminal", "--data", data, "--id", "T8", "--retailer", "9", "--out", filepath.Join(dir, "T8.creds"),
		"--operator-seed", out, "--fleet-account", fleetPub, "--jwt-dir", jwts); err == nil {
		t.Fatal("a .creds file accepted as the operator's seed")
	}
}
