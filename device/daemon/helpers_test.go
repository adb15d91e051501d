package daemon

import (
	"cmp"
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpioreg"
	"periph.io/x/conn/v3/gpio/gpiotest"
	"periph.io/x/host/v3"

	"github.com/packterm/pos/device/config"
	"github.com/packterm/pos/device/emulated"
	"github.com/packterm/pos/drivers/gpiosim"
	"github.com/packterm/pos/drivers/printer/printeremul"
	"github.com/packterm/pos/drivers/scanner"
	"github.com/packterm/pos/drivers/scanner/scanneremul"
	"github.com/packterm/pos/internal/testblock"
	"github.com/packterm/pos/validate/block"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/game"
	"github.com/packterm/pos/validate/journal"
	"github.com/packterm/pos/validate/ledger"
)

const (
	testBlockNumber = 5
	testToken       = "technician-0042"
)

// testBlock is a generated eight-pack block: its ledger file, operator keys and tickets.
type testBlock struct {
	dir, ledger, pub string
	key              ed25519.PrivateKey
	tickets          map[codes.TicketID]block.Ticket
	used             map[codes.TicketID]bool
}

func newTestBlock(t testing.TB, seed byte) *testBlock {
	t.Helper()
	def, err := game.ParseSource([]byte(testblock.Definition))
	if err != nil {
		t.Fatal(err)
	}
	tb := &testBlock{dir: t.TempDir(), tickets: map[codes.TicketID]block.Ticket{}, used: map[codes.TicketID]bool{}}
	var mu sync.Mutex
	err = emulated.GenerateBlock(context.Background(), tb.dir, def, testBlockNumber, block.Seed{seed}, func(tk *block.Ticket) {
		mu.Lock()
		tb.tickets[tk.ID] = *tk
		mu.Unlock()
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tb.ledger = filepath.Join(tb.dir, ledger.FileName(testBlockNumber))
	tb.pub = filepath.Join(tb.dir, "keys", ledger.OperatorPublicFile)
	if tb.key, err = ledger.LoadPrivateKey(filepath.Join(tb.dir, "keys", ledger.OperatorPrivateFile)); err != nil {
		t.Fatal(err)
	}
	return tb
}

// winner is the validation code of a winning ticket not used yet whose lot passes f.
func (tb *testBlock) winner(t testing.TB, f func(lot int64) bool) (codes.TicketID, string) {
	t.Helper()
	return tb.winnerWhere(t, func(tk block.Ticket) bool { return f(int64(tk.Lot)) })
}

// winnerWhere is the validation code of a winning ticket not used yet that passes f.
func (tb *testBlock) winnerWhere(t testing.TB, f func(block.Ticket) bool) (codes.TicketID, string) {
	t.Helper()
	// In ticket order, not the map's: a run picks the same tickets every time.
	ids := slices.SortedFunc(maps.Keys(tb.tickets), func(a, b codes.TicketID) int { return cmp.Compare(a.String(), b.String()) })
	for _, id := range ids {
		tk := tb.tickets[id]
		if tk.Tier > 0 && !tb.used[id] && f(tk) {
			tb.used[id] = true
			return id, codes.ValidationCodeOf(id, tk.Secret).String()
		}
	}
	t.Fatal("no such winner left in the test block")
	return codes.TicketID{}, ""
}

// statusList writes a list for retailer delivering pack 0..3 and voiding pack 4.
func (tb *testBlock) statusList(t testing.TB, retailer uint32, version uint64) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "pack-status.list")
	s := &ledger.StatusList{Retailer: retailer, Version: version, Ranges: []ledger.PackRange{
		{Block: testBlockNumber, First: 0, Count: 4, State: ledger.PackDelivered},
		{Block: testBlockNumber, First: 4, Count: 1, State: ledger.PackVoid},
	}}
	if err := ledger.WriteStatus(p, s, tb.key); err != nil {
		t.Fatal(err)
	}
	return p
}

func packCode(pack uint32) string {
	return codes.PackCode{Block: testBlockNumber, Pack: pack}.String()
}

// testBoard is a board for the daemon: fake GPIO pins under the Raspberry Pi's names, an
// emulated printer and scanner on ptys, a data directory.
type testBoard struct {
	dir  string
	ok   *gpiosim.Input
	pins map[string]*gpiotest.Pin
	pr   *printeremul.Emulator
	sc   *scanneremul.Emulator
	cfg  config.Config
}

// newBoard registers the fake pins (unregistered at the end of the test) and configures
// terminal T-1 of retailer 1 trusting tb's operator key.
func newBoard(t *testing.T, tb *testBlock) *testBoard {
	t.Helper()
	if _, err := host.Init(); err != nil {
		t.Fatal(err)
	}
	if gpioreg.ByName("GPIO25") != nil {
		t.Skip("this machine has GPIOs")
	}
	b := &testBoard{dir: t.TempDir(), pins: map[string]*gpiotest.Pin{}}
	register := func(p gpio.PinIO) {
		if err := gpioreg.Register(p); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = gpioreg.Unregister(p.Name()) })
	}
	for _, n := range []string{"GPIO25", "GPIO24", "GPIO23", "GPIO22", "GPIO27", "GPIO17", "GPIO4", "GPIO5", "GPIO6", "GPIO13", "GPIO12"} {
		p := &gpiotest.Pin{N: n, Num: -1, EdgesChan: make(chan gpio.Level, 8)}
		register(p)
		b.pins[n] = p
	}
	// The contacts keep their level as a wired switch does: buttons to ground, the case
	// switch closed.
	b.ok = gpiosim.NewInput("GPIO20", 20, false, nil)
	for _, in := range []*gpiosim.Input{b.ok, gpiosim.NewInput("GPIO21", 21, false, nil), gpiosim.NewInput("GPIO16", 16, true, nil)} {
		register(in)
	}
	var err error
	if b.pr, err = printeremul.NewEmulator(filepath.Join(b.dir, "printer"), printeremul.Config{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.pr.Close() })
	if b.sc, err = scanneremul.New(filepath.Join(b.dir, "scanner"), scanneremul.Config{Suffix: scanner.CR}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.sc.Close() })
	b.cfg = config.Default()
	b.cfg.TerminalID, b.cfg.RetailerID, b.cfg.DataDir = "T-1", "1", filepath.Join(b.dir, "data")
	b.cfg.Keys.Operator = []string{tb.pub}
	b.cfg.Scanner.Port, b.cfg.Printer.Port = b.sc.Path(), b.pr.Path()
	sum := sha256.Sum256([]byte(testToken))
	b.cfg.Technician.TokenSHA256 = hex.EncodeToString(sum[:])
	b.cfg.HTTP = ""
	return b
}

// installLedger installs tb's ledger in the data directory, as posctl ledger install does.
func (b *testBoard) installLedger(t *testing.T, tb *testBlock) {
	t.Helper()
	trust, err := ledger.LoadTrustStore(tb.pub)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(b.cfg.DataDir, 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := ledger.Install(b.cfg.DataDir, tb.ledger, trust); err != nil {
		t.Fatal(err)
	}
}

// installStatus installs tb's status list for retailer 1 (packs 0..3 delivered, pack 4
// void), as posctl status install does.
func (b *testBoard) installStatus(t *testing.T, tb *testBlock) {
	t.Helper()
	trust, err := ledger.LoadTrustStore(tb.pub)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ledger.InstallStatus(b.cfg.DataDir, tb.statusList(t, 1, 1), trust, 1); err != nil {
		t.Fatal(err)
	}
}

// daemon is one run of the daemon under test.
type daemon struct {
	t      *testing.T
	r      Running
	cancel context.CancelFunc
	done   chan error
}

// start runs the daemon on b with o (Started is set here) until the test ends or stop.
func (b *testBoard) start(t *testing.T, o Options) *daemon {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	d := &daemon{t: t, cancel: cancel, done: make(chan error, 1)}
	running := make(chan Running, 1)
	o.Started = func(r Running) { running <- r }
	cfg := b.cfg
	go func() { d.done <- Run(ctx, &cfg, o) }()
	select {
	case d.r = <-running:
	case err := <-d.done:
		cancel()
		t.Fatalf("daemon did not start: %v", err)
	case <-time.After(20 * time.Second):
		cancel()
		t.Fatal("daemon did not start in 20 s")
	}
	t.Cleanup(func() { d.stop() })
	wait(t, "the scanner connected and the first screen shown", func() bool {
		select {
		case <-d.r.Terminal.Ready():
			return d.r.Terminal.ScannerPresent()
		default:
			return false
		}
	})
	return d
}

// stop cancels the daemon and returns what Run returned (once; later calls return nil).
func (d *daemon) stop() error {
	if d.cancel == nil {
		return nil
	}
	d.cancel()
	d.cancel = nil
	select {
	case err := <-d.done:
		return err
	case <-time.After(20 * time.Second):
		d.t.Fatal("daemon did not stop in 20 s")
	}
	return nil
}

// ended waits for Run to return on its own (a restart) and returns its error.
func (d *daemon) ended(within time.Duration) error {
	d.t.Helper()
	select {
	case err := <-d.done:
		d.cancel()
		d.cancel = nil
		return err
	case <-time.After(within):
		d.t.Fatalf("daemon still running after %v", within)
	}
	return nil
}

// scan scans code and waits for a screen holding every word of want.
func (d *daemon) scan(b *testBoard, code string, want ...string) {
	d.t.Helper()
	if err := b.sc.Scan(context.Background(), code, ""); err != nil {
		d.t.Fatal(err)
	}
	d.expect(want...)
}

// press presses OK and waits for a screen holding every word of want.
func (d *daemon) press(b *testBoard, want ...string) {
	d.t.Helper()
	b.ok.Press()
	time.Sleep(100 * time.Millisecond)
	b.ok.Release()
	d.expect(want...)
}

func (d *daemon) expect(want ...string) {
	d.t.Helper()
	var last []string
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		last = d.r.Terminal.Screen()
		s := strings.Join(last, " / ")
		all := true
		for _, w := range want {
			all = all && strings.Contains(s, w)
		}
		if all {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	d.t.Fatalf("screen %q, want %q", last, want)
}

// wait polls cond for up to 20 s.
func wait(t testing.TB, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); !cond(); {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// records reads the journal of the data directory (read-only, beside a running daemon).
func records(t testing.TB, dataDir string) []journal.Record {
	t.Helper()
	j, err := journal.Open(filepath.Join(dataDir, "journal"), journal.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	var rs []journal.Record
	if err := j.Each(time.Time{}, func(r journal.Record) error { rs = append(rs, r); return nil }); err != nil {
		t.Fatal(err)
	}
	return rs
}

func kinds(rs []journal.Record) map[journal.Kind]int {
	m := map[journal.Kind]int{}
	for _, r := range rs {
		m[r.Kind]++
	}
	return m
}
