package main

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/packterm/pos/device/emulated"
	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/device/fleet/fleettest"
	"github.com/packterm/pos/device/fleet/server"
	"github.com/packterm/pos/validate/block"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/game"
	"github.com/packterm/pos/validate/journal"
	"github.com/packterm/pos/validate/ledger"
)

// fleetBlock is the crash test's block (every pack has winners of 30 €) with each winner's
// amount.
type fleetBlock struct {
	dir, ledger, pub string
	lots             map[codes.TicketID]int64
	codes            map[codes.TicketID]string
}

func newFleetBlock(t *testing.T) *fleetBlock {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", "crash-definition.json"))
	if err != nil {
		t.Fatal(err)
	}
	def, err := game.ParseSource(src)
	if err != nil {
		t.Fatal(err)
	}
	b := &fleetBlock{dir: t.TempDir(), lots: map[codes.TicketID]int64{}, codes: map[codes.TicketID]string{}}
	var mu sync.Mutex
	err = emulated.GenerateBlock(context.Background(), b.dir, def, 3, block.Seed{3}, func(tk *block.Ticket) {
		if tk.Tier > 0 {
			mu.Lock()
			b.lots[tk.ID], b.codes[tk.ID] = int64(tk.Lot), codes.ValidationCodeOf(tk.ID, tk.Secret).String()
			mu.Unlock()
		}
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	b.ledger, b.pub = filepath.Join(b.dir, ledger.FileName(3)), filepath.Join(b.dir, "keys", ledger.OperatorPublicFile)
	return b
}

// winner is a winner of amount cents not in used.
func (b *fleetBlock) winner(t *testing.T, amount int64, used map[codes.TicketID]bool) codes.TicketID {
	t.Helper()
	for id, lot := range b.lots {
		if lot == amount && !used[id] {
			used[id] = true
			return id
		}
	}
	t.Fatalf("no winner of %d cents left", amount)
	return codes.TicketID{}
}

// fleetConfig is the posd.toml of terminal SHOP-7 (retailer 1) in the fleet at url, with
// offline_per_ticket = 5,00 and no web page.
func fleetConfig(t *testing.T, dir, pub, url, creds string) string {
	t.Helper()
	p := filepath.Join(dir, "posd.toml")
	toml := fmt.Sprintf("[terminal]\nid = \"SHOP-7\"\nretailer = \"1\"\n[limits]\npay_per_ticket = \"150,00\"\noffline_per_ticket = \"5,00\"\n"+
		"[keys]\noperator = [%q]\n[http]\nlisten = \"\"\n[fleet]\nurl = %q\ncredentials = %q\n", pub, url, creds)
	if err := os.WriteFile(p, []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// emulateScript runs posd --emulate --config conf on the block with script, and returns
// its output and its journal's payout of id, if any.
func emulateScript(t *testing.T, b *fleetBlock, conf, data, script string, id codes.TicketID) (string, journal.Record, bool) {
	t.Helper()
	sp := filepath.Join(t.TempDir(), "script.txt")
	if err := os.WriteFile(sp, []byte(script), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if rc := run([]string{"--emulate", "--config", conf, "--data", data, "--ledger", b.ledger, "--pub", b.pub, "--script", sp}, nil, &out, &errb); rc != 0 {
		t.Fatalf("exit %d\n%s\n%s", rc, errb.String(), out.String())
	}
	j, err := journal.Open(filepath.Join(data, "terminal", "journal"), journal.Options{Terminal: "SHOP-7", ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	r, paid, err := j.Paid(id)
	if err != nil {
		t.Fatal(err)
	}
	return out.String(), r, paid
}

// TestEmulateConfigFleetOutOfReach: posd --emulate --config with [fleet] and
// offline_per_ticket = 5,00, the fleet out of reach, refuses a 30 € winner, as a board
// does. Before the one assembly, the emulator ignored [fleet] and the offline limits and
// paid it.
func TestEmulateConfigFleetOutOfReach(t *testing.T) {
	dir := t.TempDir()
	b := newFleetBlock(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "nats://" + ln.Addr().String() // nothing listens there once closed
	ln.Close()
	creds := filepath.Join(dir, "SHOP-7.nk")
	if _, err := server.NewSeedFile(creds); err != nil {
		t.Fatal(err)
	}
	id := b.winner(t, 30_00, map[codes.TicketID]bool{})
	out, _, paid := emulateScript(t, b, fleetConfig(t, dir, b.pub, closed, creds), filepath.Join(dir, "data"), b.codes[id]+"\n!ok\n", id)
	if paid || !strings.Contains(out, "NON PAYÉ") {
		t.Fatalf("a 30 € winner with the fleet out of reach and offline_per_ticket = 5,00: paid %v\n%s", paid, out)
	}
}

// TestEmulateConfigJoinsFleet: posd --emulate --config with [fleet] joins a real fleet (an
// embedded JetStream server and its claim service) like a board: a 30 € winner is claimed
// fleet-wide (the claim service holds SHOP-7's claim), then paid, confirmed. Before the one
// assembly, the emulator ignored [fleet]: paid, never claimed.
func TestEmulateConfigJoinsFleet(t *testing.T) {
	if testing.Short() {
		t.Skip("an embedded fleet: not with -short")
	}
	dir := t.TempDir()
	b := newFleetBlock(t)
	fdir := t.TempDir()
	reg, err := server.InitData(fdir)
	if err != nil {
		t.Fatal(err)
	}
	creds := filepath.Join(fdir, "SHOP-7.nk")
	kp, err := server.NewSeedFile(creds)
	if err != nil {
		t.Fatal(err)
	}
	pubKey, _ := kp.PublicKey()
	reg.Terminals = append(reg.Terminals, server.Terminal{ID: "SHOP-7", Retailer: 1, NKey: pubKey})
	srv, err := server.Start(server.Options{DataDir: fdir, Listen: "127.0.0.1:0", Registry: reg})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Shutdown)
	op, err := server.ConnectOperator(srv.URL(), filepath.Join(fdir, server.OperatorSeedFile), "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(op.Close)
	trust, err := ledger.LoadTrustStore(b.pub)
	if err != nil {
		t.Fatal(err)
	}
	ledgers, err := server.LoadLedgers(b.dir, trust, server.LedgerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, stores := fleettest.RunService(t, op, reg, server.ServiceOptions{Ledgers: ledgers, Status: deliveredTo{trust: trust, dir: b.dir}})

	id := b.winner(t, 30_00, map[codes.TicketID]bool{})
	out, r, paid := emulateScript(t, b, fleetConfig(t, dir, b.pub, srv.URL(), creds), filepath.Join(dir, "data"), b.codes[id]+"\n!ok\n", id)
	if !paid || r.Unconfirmed() {
		t.Fatalf("a 30 € winner in a reachable fleet: paid %v, unconfirmed %v\n%s", paid, r.Unconfirmed(), out)
	}
	e, err := stores.Claims.Get(context.Background(), fleet.ClaimKey(id))
	if err != nil {
		t.Fatalf("the payout was not claimed fleet-wide: %v", err)
	}
	c, err := fleet.DecodeClaim(e.Value())
	if err != nil || c.Terminal != "SHOP-7" || c.Unconfirmed {
		t.Fatalf("claim %+v, %v", c, err)
	}
}

// deliveredTo is a claim service's status source: every pack of the block delivered to
// retailer 1.
type deliveredTo struct {
	trust *ledger.TrustStore
	dir   string
}

func (d deliveredTo) Status(_ context.Context, retailer uint32) (*ledger.StatusList, error) {
	if retailer != 1 {
		return nil, server.ErrNoStatus
	}
	key, err := ledger.LoadPrivateKey(filepath.Join(d.dir, "keys", ledger.OperatorPrivateFile))
	if err != nil {
		return nil, err
	}
	data, err := ledger.MarshalStatus(&ledger.StatusList{Retailer: 1, Version: 1, Ranges: []ledger.PackRange{
		{Block: 3, First: 0, Count: 40, State: ledger.PackDelivered}}}, key)
	if err != nil {
		return nil, err
	}
	return ledger.ParseStatus(data, d.trust)
}

// TestEmulateConfigRefusesWhatItCannotEmulate: a setting the emulator cannot honour (a
// keyboard-wedge scanner, [scanner] input) is refused with an error naming it, before
// anything runs; before, --emulate --config ignored every section but a few, silently.
func TestEmulateConfigRefusesWhatItCannotEmulate(t *testing.T) {
	dir := t.TempDir()
	conf := filepath.Join(dir, "posd.toml")
	toml := "[terminal]\nid = \"SHOP-7\"\nretailer = \"1\"\n[keys]\noperator = [\"" + filepath.Join(dir, "op.pub") + "\"]\n[scanner]\ninput = \"/dev/input/by-id/usb-scanner-event-kbd\"\n"
	if err := os.WriteFile(conf, []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	rc := run([]string{"--emulate", "--config", conf, "--data", filepath.Join(dir, "data")}, strings.NewReader(""), &out, &errb)
	if rc == 0 || !strings.Contains(errb.String(), "[scanner] input") || strings.Contains(out.String(), "codes to try") {
		t.Fatalf("exit %d\n%s\n%s", rc, errb.String(), out.String())
	}
}
