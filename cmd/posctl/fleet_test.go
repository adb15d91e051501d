package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
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
	"github.com/packterm/pos/validate/journal"
	"github.com/packterm/pos/validate/ledger"
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

// TestFleetCommands: add-terminal, serve, then two terminals with real journals pay;
// report shows sales, payouts, the unconfirmed payout and the conflict per retailer;
// settle lists the forged payout.
func TestFleetCommands(t *testing.T) {
	data := t.TempDir()
	creds := t.TempDir()
	for _, a := range [][]string{{"T1", "5"}, {"T2", "6"}} {
		if out, err := runNet(t, "fleet", "add-terminal", "--data", data, "--id", a[0], "--retailer", a[1], "--out", filepath.Join(creds, a[0]+".nk")); err != nil {
			t.Fatalf("add-terminal: %v\n%s", err, out)
		}
	}
	if _, err := runNet(t, "fleet", "add-terminal", "--data", data, "--id", "T1", "--retailer", "5", "--out", filepath.Join(creds, "again.nk")); err == nil {
		t.Fatal("a terminal registered twice")
	}
	l, _ := net.Listen("tcp", "127.0.0.1:0")
	listen := l.Addr().String()
	l.Close()
	url := "nats://" + listen
	reg, err := server.LoadRegistry(data)
	if err != nil {
		t.Fatal(err)
	}
	seed := block.Seed{3, 1, 4}
	truth := func(id codes.TicketID) (s [codes.SecretSize]byte) {
		seed.Secrets([]codes.TicketID{id}, func(_ codes.TicketID, x [codes.SecretSize]byte) { s = x })
		return s
	}
	good, forged := codes.TicketID{Block: 7, Pack: 12, Position: 4}, codes.TicketID{Block: 7, Pack: 13, Position: 1}
	// The operator's block 7 ledger: good wins 50 € (game 4's fourth prize), forged 1 €.
	blk := fleettest.NewBlock(t, 7, 20, truth, func(id codes.TicketID) uint8 {
		return map[codes.TicketID]uint8{good: 4, forged: 6}[id]
	})
	ledgers := t.TempDir()
	blk.Write(t, ledgers)
	ls, err := server.LoadLedgers(ledgers, blk.Trust, server.LedgerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	ready := make(chan struct{})
	fleetCmd.SetOut(&bytes.Buffer{})
	go func() {
		served <- serveFleet(ctx, fleetCmd, server.Options{DataDir: data, Listen: listen, Registry: reg, SyncAlways: true}, data,
			server.ServiceOptions{Ledgers: ls, Trust: blk.Trust, Ready: ready})
	}()
	select {
	case <-ready:
		fleetCmd.SetOut(nil)
	case err := <-served:
		t.Fatal(err)
	}
	defer func() {
		cancel()
		if err := <-served; err != nil {
			t.Errorf("serve: %v", err)
		}
	}()

	manifest := filepath.Join(t.TempDir(), block.ManifestFileName(7))
	os.WriteFile(manifest, []byte(`{"block": 7, "ledger_version": 1, "seed": "`+seed.String()+`"}`), 0o600)
	// Each retailer's status list: packs 10 to 19 delivered (posctl fleet publish-status).
	keys := t.TempDir()
	pubFile := filepath.Join(keys, "operator.pub")
	os.WriteFile(pubFile, ledger.MarshalPublicKey(blk.Key.Public().(ed25519.PublicKey), "test"), 0o644)
	for _, r := range []uint32{5, 6} {
		list := filepath.Join(keys, fmt.Sprintf("status-%d.list", r))
		os.WriteFile(list, blk.Status(t, r, 1, ledger.PackRange{Block: 7, First: 10, Count: 10, State: ledger.PackDelivered}), 0o644)
		if out, err := runNet(t, "fleet", "publish-status", "--data", data, "--url", url, "--pub", pubFile, list); err != nil {
			t.Fatalf("publish-status: %v\n%s", err, out)
		}
	}
	term := func(id string) (*journal.Journal, *fleet.Client) {
		c, j := fleettest.Connect(t, fleet.Options{Terminal: id, URL: url, Credentials: filepath.Join(creds, id+".nk")})
		for deadline := time.Now().Add(10 * time.Second); !c.Online(); time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatal("terminal never connected")
			}
		}
		return j, c
	}
	j1, c1 := term("T1")
	j2, c2 := term("T2")
	bad := truth(forged)
	bad[0] ^= 0xff
	pay := func(j *journal.Journal, id codes.TicketID, s [codes.SecretSize]byte, amount int64, reason string) {
		if _, err := j.Append(journal.Entry{Kind: journal.KindPayout, Ticket: id, Game: int(id.Position), Amount: amount,
			Code: codes.ValidationCodeOf(id, s).String(), Reason: reason}); err != nil {
			t.Fatal(err)
		}
	}
	bg := context.Background()
	j1.Append(journal.Entry{Kind: journal.KindSale, Ticket: codes.TicketID{Block: 7, Pack: 12}, Amount: 4000})
	if _, err := c1.Claim(bg, codes.ValidationCodeOf(good, truth(good)), 5000); err != nil {
		t.Fatal(err)
	}
	// The forged code's claim is refused (recorded for posctl fleet refusals); the payout
	// is journalled all the same, as a terminal whose owner bypassed the claim would.
	var refused *fleet.RefusedError
	if _, err := c1.Claim(bg, codes.ValidationCodeOf(forged, bad), 2500); !errors.As(err, &refused) || refused.Reason != fleet.RefusedWrongCode {
		t.Fatalf("forged code's claim: %v", err)
	}
	pay(j1, good, truth(good), 5000, "")
	pay(j1, forged, bad, 2500, "")
	pay(j2, good, truth(good), 5000, journal.ReasonUnconfirmed) // paid while cut off
	for _, c := range []*fleet.Client{c1, c2, c1} {
		if err := c.Sync(bg); err != nil {
			t.Fatal(err)
		}
	}
	out, err := runNet(t, "fleet", "report", "--data", data, "--url", url)
	if err != nil {
		t.Fatalf("report: %v\n%s", err, out)
	}
	for _, want := range []string{"fleet report: 6 records", "CONFLICTS", "T1/4", "T2/2", "paid-elsewhere", "conflicts bucket: 2 entries",
		"claims: 1; claimed but no payout published: 0; payouts not claimed by their terminal: 2", "paid, not claimed: T2/1",
		"paid, not claimed: T1/3"} { // the forged payout: its claim was refused
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(out, "5         7           1        40,00       2        75,00       0         0,00           0         0,00         1") {
		t.Errorf("retailer 5 row:\n%s", out)
	}
	out, err = runNet(t, "fleet", "settle", "--manifest", manifest, "--data", data, "--url", url)
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != 3 || !strings.Contains(out, "FORGED PAYOUTS: 1") || !strings.Contains(out, "T1/3") {
		t.Fatalf("settle: %v\n%s", err, out)
	}
	if strings.Contains(out, codes.ValidationCodeOf(forged, bad).String()) {
		t.Fatal("settle printed a validation code")
	}
	out, err = runNet(t, "fleet", "refusals", "--data", data, "--url", url)
	if err != nil || !strings.Contains(out, "refused claims: 1") || !strings.Contains(out, "wrong-code") || !strings.Contains(out, "T1") {
		t.Fatalf("refusals: %v\n%s", err, out)
	}
	if strings.Contains(out, codes.ValidationCodeOf(forged, bad).String()) {
		t.Fatal("refusals printed a validation code")
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
