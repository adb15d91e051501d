package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"testing"
	"time"

	"github.com/packterm/pos/device/fleet"
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

// operatorBlock is a block as the operator makes it: keys by posctl keys gen, the signed
// ledger, printer's file and manifest (seed, definition hash) by posctl ledger gen. The
// claim service holds its ledger (service), settlement re-derives it from the manifest:
// both see the same block.
type operatorBlock struct {
	Number   uint16
	Seed     block.Seed
	Plan     *block.Plan
	DefFile  string // the definition (JSON) it was made from
	Keys     string // operator.key, operator.pub
	Blocks   string // block-N.ledger, block-N.print.csv.gz, block-N.manifest.json
	Pub      string // Keys/operator.pub
	Manifest string // Blocks/block-N.manifest.json
}

// newOperatorBlock makes block number of definition source (JSON) from seed.
func newOperatorBlock(t *testing.T, source string, number uint16, seed block.Seed) *operatorBlock {
	t.Helper()
	dir := t.TempDir()
	b := &operatorBlock{Number: number, Seed: seed, Keys: filepath.Join(dir, "keys"), Blocks: filepath.Join(dir, "blocks")}
	b.Pub = filepath.Join(b.Keys, "operator.pub")
	b.Manifest = filepath.Join(b.Blocks, block.ManifestFileName(number))
	def, err := game.ParseSource([]byte(source))
	if err != nil {
		t.Fatal(err)
	}
	if b.Plan, err = block.NewPlan(def, number, seed); err != nil {
		t.Fatal(err)
	}
	b.DefFile = writeTemp(t, "definition.json", []byte(source), 0o600)
	if o, err := runFresh(t, "keys", "gen", "--out", b.Keys); err != nil {
		t.Fatalf("keys gen: %v\n%s", err, o)
	}
	if o, err := runFresh(t, "ledger", "gen", "--key", filepath.Join(b.Keys, "operator.key"), "--block", fmt.Sprint(number),
		"--seed", seed.String(), "--definition", b.DefFile, "--out", b.Blocks); err != nil {
		t.Fatalf("ledger gen: %v\n%s", err, o)
	}
	return b
}

// Service is the claim service's options for this block: its ledger directory loaded and
// verified with the operator's key, the status lists verified with the same key.
func (b *operatorBlock) Service(t *testing.T) server.ServiceOptions {
	t.Helper()
	trust, err := loadTrust([]string{b.Pub})
	if err != nil {
		t.Fatal(err)
	}
	ls, err := server.LoadLedgers(b.Blocks, trust, server.LedgerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return server.ServiceOptions{Ledgers: ls, Trust: trust}
}

// PublishStatus signs retailer's status list (posctl status gen: packs delivered, each
// BLOCK:FIRST[-LAST]) and publishes it to the fleet (posctl fleet publish-status).
func (b *operatorBlock) PublishStatus(t *testing.T, data, url string, retailer uint32, delivered ...string) {
	t.Helper()
	list := filepath.Join(t.TempDir(), fmt.Sprintf("status-%d.list", retailer))
	args := []string{"status", "gen", "--key", filepath.Join(b.Keys, "operator.key"), "--retailer", fmt.Sprint(retailer),
		"--version", "1", "--out", list}
	for _, d := range delivered {
		args = append(args, "--delivered", d)
	}
	if out, err := runNet(t, args...); err != nil {
		t.Fatalf("status gen: %v\n%s", err, out)
	}
	if out, err := runNet(t, "fleet", "publish-status", "--data", data, "--url", url, "--pub", b.Pub, list); err != nil {
		t.Fatalf("publish-status: %v\n%s", err, out)
	}
}

// Secret is ticket id's secret, from the seed.
func (b *operatorBlock) Secret(id codes.TicketID) (s [codes.SecretSize]byte) {
	b.Seed.Secrets([]codes.TicketID{id}, func(_ codes.TicketID, x [codes.SecretSize]byte) { s = x })
	return s
}

// Code is ticket id's true validation code.
func (b *operatorBlock) Code(id codes.TicketID) codes.ValidationCode {
	return codes.ValidationCodeOf(id, b.Secret(id))
}

// Prize is ticket id's prize in cents (0: a loser).
func (b *operatorBlock) Prize(id codes.TicketID) int64 {
	_, lot, _ := b.Plan.Prize(id)
	return int64(lot)
}

// startFleet registers terminals (id, retailer[, device public key file]) and serves the fleet from a new data
// directory with the claim service's options so (its ledgers and operator keys) until
// the test ends; it returns the directory, the terminals' credentials directory and the
// server's URL.
func startFleet(t *testing.T, terminals [][]string, so server.ServiceOptions) (data, creds, url string) {
	t.Helper()
	return startFleetWith(t, terminals, so, &consoleFlags{}, &bytes.Buffer{})
}

// startFleetWith is startFleet with fleet serve's console flags cf, its output to out.
func startFleetWith(t *testing.T, terminals [][]string, so server.ServiceOptions, cf *consoleFlags, out io.Writer) (data, creds, url string) {
	t.Helper()
	data, creds = t.TempDir(), t.TempDir()
	for _, a := range terminals {
		args := []string{"fleet", "add-terminal", "--data", data, "--id", a[0], "--retailer", a[1], "--out", filepath.Join(creds, a[0]+".nk")}
		if len(a) > 2 {
			args = append(args, "--device-pub", a[2])
		}
		if out, err := runNet(t, args...); err != nil {
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
	so.Ready = ready
	fleetCmd.SetOut(out)
	go func() {
		served <- serveFleet(ctx, fleetCmd, server.Options{DataDir: data, Listen: listen, Registry: reg, SyncAlways: true}, data, so,
			&claimCheck{setup: time.Minute, poll: server.DefaultRegistryPoll}, cf)
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
// registers the journal's device key (its device.pub, as a technician copies it) with
// posctl fleet set-device-key in data, and waits until it is online.
func fleetTerminal(t *testing.T, data, url, creds, id string) (*journal.Journal, *fleet.Client) {
	t.Helper()
	dir, j := terminalJournal(t, id)
	if out, err := runNet(t, "fleet", "set-device-key", "--data", data, "--id", id, "--pub", filepath.Join(dir, journal.DevicePubFile)); err != nil {
		t.Fatalf("set-device-key: %v\n%s", err, out)
	}
	return j, connectTerminal(t, url, creds, dir, j)
}

// terminalJournal is a new journal of terminal id and its directory (device.key,
// device.pub).
func terminalJournal(t *testing.T, id string) (string, *journal.Journal) {
	t.Helper()
	dir := t.TempDir()
	j, err := journal.Open(dir, journal.Options{Terminal: id})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close() })
	return dir, j
}

// connectTerminal connects journal j's terminal (state in dir) with its credentials from
// creds and waits until it is online.
func connectTerminal(t *testing.T, url, creds, dir string, j *journal.Journal) *fleet.Client {
	t.Helper()
	id := j.Terminal()
	c, err := fleet.Connect(fleet.Options{Terminal: id, URL: url, Credentials: filepath.Join(creds, id+".nk"), Journal: j, StateDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	for deadline := time.Now().Add(10 * time.Second); !c.Online(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("terminal never connected")
		}
	}
	return c
}
