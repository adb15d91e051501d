package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/jwt/v2"
	"github.com/nats-io/nkeys"

	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/device/fleet/fleettest"
	"github.com/packterm/pos/device/fleet/server"
	"github.com/packterm/pos/validate/block"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/game"
	"github.com/packterm/pos/validate/journal"
)

// runNet runs posctl outside a synctest bubble (the fleet commands talk over TCP).
func runNet(t *testing.T, args ...string) (string, error) {
	t.Helper()
	resetFlags(root)
	var out bytes.Buffer
	root.SetArgs(args)
	root.SetOut(&out)
	root.SetErr(&out)
	defer root.SetOut(nil)
	defer root.SetErr(nil)
	err := root.Execute()
	return out.String(), err
}

// startFleet registers terminals (id, retailer) and serves the fleet from a new data
// directory until the test ends; it returns the directory, the terminals' credentials
// directory and the server's URL.
func startFleet(t *testing.T, terminals [][]string) (data, creds, url string) {
	t.Helper()
	data, creds = t.TempDir(), t.TempDir()
	for _, a := range terminals {
		if out, err := runNet(t, "fleet", "add-terminal", "--data", data, "--id", a[0], "--retailer", a[1], "--out", filepath.Join(creds, a[0]+".nk")); err != nil {
			t.Fatalf("add-terminal: %v\n%s", err, out)
		}
	}
	l, _ := net.Listen("tcp", "127.0.0.1:0")
	listen := l.Addr().String()
	l.Close()
	reg, err := server.LoadRegistry(data)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	ready := make(chan struct{})
	fleetCmd.SetOut(&bytes.Buffer{})
	go func() {
		served <- serveFleet(ctx, fleetCmd, server.Options{DataDir: data, Listen: listen, Registry: reg, SyncAlways: true}, data, ready)
	}()
	select {
	case <-ready:
		fleetCmd.SetOut(nil)
	case err := <-served:
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		if err := <-served; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	return data, creds, "nats://" + listen
}

// fleetTerminal connects terminal id with its credentials from creds and a new journal,
// and waits until it is online.
func fleetTerminal(t *testing.T, url, creds, id string) (*journal.Journal, *fleet.Client) {
	t.Helper()
	c, j := fleettest.Connect(t, fleet.Options{Terminal: id, URL: url, Credentials: filepath.Join(creds, id+".nk")})
	for deadline := time.Now().Add(10 * time.Second); !c.Online(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("terminal never connected")
		}
	}
	return j, c
}

// TestFleetCommands: add-terminal, serve, then two terminals with real journals pay;
// report shows sales, payouts, the unconfirmed payout and the conflict per retailer;
// settle lists the forged payout.
func TestFleetCommands(t *testing.T) {
	data, creds, url := startFleet(t, [][]string{{"T1", "5"}, {"T2", "6"}})
	if _, err := runNet(t, "fleet", "add-terminal", "--data", data, "--id", "T1", "--retailer", "5", "--out", filepath.Join(creds, "again.nk")); err == nil {
		t.Fatal("a terminal registered twice")
	}

	// Block 7 of the eight-pack test game, made from seed: its manifest and definition.
	seed := block.Seed{3, 1, 4}
	def, err := game.ParseSource([]byte(tinyDefinition))
	if err != nil {
		t.Fatal(err)
	}
	plan, err := block.NewPlan(def, 7, seed)
	if err != nil {
		t.Fatal(err)
	}
	defFile := writeTemp(t, "tiny.json", []byte(tinyDefinition), 0o600)
	manifest := filepath.Join(t.TempDir(), block.ManifestFileName(7))
	os.WriteFile(manifest, []byte(`{"block": 7, "ledger_version": 1, "seed": "`+seed.String()+`", "packs": 8, "definition_sha256": "`+
		block.DefinitionSHA256(def)+`"}`), 0o600)
	truth := func(id codes.TicketID) (s [codes.SecretSize]byte) {
		seed.Secrets([]codes.TicketID{id}, func(_ codes.TicketID, x [codes.SecretSize]byte) { s = x })
		return s
	}
	prize := func(id codes.TicketID) int64 { _, lot, _ := plan.Prize(id); return int64(lot) }
	var winners []codes.TicketID
	for pack := range 8 {
		for pos := 1; pos <= 8; pos++ {
			if id := (codes.TicketID{Block: 7, Pack: uint32(pack), Position: uint8(pos)}); prize(id) > 0 {
				winners = append(winners, id)
			}
		}
	}
	j1, c1 := fleetTerminal(t, url, creds, "T1")
	j2, c2 := fleetTerminal(t, url, creds, "T2")
	good, forged := winners[0], winners[1]
	bad := truth(forged)
	bad[0] ^= 0xff
	pay := func(j *journal.Journal, id codes.TicketID, s [codes.SecretSize]byte, reason string) {
		if _, err := j.Append(journal.Entry{Kind: journal.KindPayout, Ticket: id, Game: int(id.Position), Amount: prize(id),
			Code: codes.ValidationCodeOf(id, s).String(), Reason: reason}); err != nil {
			t.Fatal(err)
		}
	}
	bg := context.Background()
	j1.Append(journal.Entry{Kind: journal.KindSale, Ticket: codes.TicketID{Block: 7, Pack: good.Pack}, Amount: 4000})
	for _, id := range []codes.TicketID{good, forged} {
		if _, err := c1.Claim(bg, id, prize(id)); err != nil {
			t.Fatal(err)
		}
	}
	pay(j1, good, truth(good), "")
	pay(j1, forged, bad, "")
	pay(j2, good, truth(good), journal.ReasonUnconfirmed) // paid while cut off
	for _, c := range []*fleet.Client{c1, c2, c1} {
		if err := c.Sync(bg); err != nil {
			t.Fatal(err)
		}
	}
	// The conflict and the forged payout are flagged: exit status 3. Each conflict of the
	// bucket is shown once (issue 33: it held, and the report printed, one entry per side).
	out, err := runNet(t, "fleet", "report", "--data", data, "--url", url, "--manifest", manifest, "--definition", defFile)
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != exitFlagged {
		t.Fatalf("report: %v\n%s", err, out)
	}
	for _, want := range []string{"fleet report: 6 records", "CONFLICTS", "T1/4", "T2/2", "paid-elsewhere", "conflicts bucket: 1 conflicts",
		"claims: 2; claimed but no payout published: 0; payouts not claimed by their terminal: 1", "paid, not claimed: T2/1",
		"FLAGGED PAYOUTS: 3"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "also paid offline by T2"); n != 1 {
		t.Errorf("the bucket's conflict shown %d times:\n%s", n, out)
	}
	paid := prize(good) + prize(forged)
	row := fmt.Sprintf("%-9d %-5d %7d %12s %7d %12s %7d %12s %7d %12s %11d %12s %9d", 5, 7, 1, "40,00", 2, journal.Euros(paid), 2, journal.Euros(paid),
		0, "0,00", 0, "0,00", 1)
	if !strings.Contains(out, row) {
		t.Errorf("retailer 5 row %q:\n%s", row, out)
	}
	out, err = runNet(t, "fleet", "settle", "--manifest", manifest, "--definition", defFile, "--data", data, "--url", url)
	if !errors.As(err, &ee) || ee.code != exitFlagged || !strings.Contains(out, "FLAGGED PAYOUTS: 3") || !strings.Contains(out, "wrong-code: wrong secret") {
		t.Fatalf("settle: %v\n%s", err, out)
	}
	if strings.Contains(out, codes.ValidationCodeOf(forged, bad).String()) {
		t.Fatal("settle printed a validation code")
	}
	// Usage and input errors exit 1, not 3.
	for _, args := range [][]string{
		{"fleet", "settle", "--data", data, "--url", url},
		{"fleet", "settle", "--manifest", filepath.Join(t.TempDir(), "none.json"), "--data", data, "--url", url},
		{"fleet", "settle", "--manifest", manifest, "--data", data, "--url", url}, // the règlement is not block 7's definition
	} {
		if _, err := runNet(t, args...); err == nil || errors.As(err, &ee) {
			t.Errorf("%v: %v", args, err)
		}
	}
}

// add-terminal --account-seed writes a .creds file for an operator/account (JWT) mode
// cluster: a user JWT of the fleet account with the terminal's permissions, registered
// under the same public key.
func TestFleetAddTerminalCreds(t *testing.T) {
	data, dir := t.TempDir(), t.TempDir()
	akp, _ := nkeys.CreateAccount()
	seed, _ := akp.Seed()
	acct := filepath.Join(dir, "fleet-account.nk")
	if err := os.WriteFile(acct, seed, 0o600); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "T7.creds")
	if o, err := runNet(t, "fleet", "add-terminal", "--data", data, "--id", "T7", "--retailer", "9", "--out", out, "--account-seed", acct); err != nil {
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
	if _, err := runNet(t, "fleet", "add-terminal", "--data", data, "--id", "T8", "--retailer", "9", "--out", filepath.Join(dir, "T8.creds"), "--account-seed", out); err == nil {
		t.Fatal("a .creds file accepted as the account's seed")
	}
}
