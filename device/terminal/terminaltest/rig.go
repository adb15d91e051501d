package terminaltest

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/packterm/pos/device/config"
	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/device/retail"
	"github.com/packterm/pos/device/terminal"
	"github.com/packterm/pos/drivers/display"
	"github.com/packterm/pos/drivers/printer"
	"github.com/packterm/pos/validate/journal"
	"github.com/packterm/pos/validate/ledger"
)

// Options of a Rig; the zero value is a terminal with no ledger on a 20×4 screen.
type Options struct {
	// Config of the terminal: Terminal, StateDir, Clock and Logger are set when empty
	// ("T-0001", a directory of the test, NewClock(), discard).
	Config   terminal.Config
	Geometry display.Geometry // zero value: 20×4
	Ledgers  *ledger.Set
	Status   retail.PackStatus
	Fleet    fleet.Claimer
	// Spool tunes the printer's spool (its FS: spooltest.FaultFS). Its Headroom 0 keeps
	// nothing free (the fakes' default, unlike the real spool's).
	Spool printer.SpoolOptions
	// Dir holds the journal, the spool and the state (default: TempDir(t)); a second rig
	// on the same Dir is the same terminal restarted.
	Dir string
}

// ramDir is a filesystem in memory where the OS has one (Linux: /dev/shm): the journal
// and the spool fsync each record, which costs tens of milliseconds on a loaded disk and
// nothing there. The code paths are the same.
const ramDir = "/dev/shm"

// TempDir is a directory removed when the test ends, in memory when the OS has a
// filesystem there (ramDir), else t.TempDir().
func TempDir(t testing.TB) string {
	t.Helper()
	if fi, err := os.Stat(ramDir); err == nil && fi.IsDir() {
		if dir, err := os.MkdirTemp(ramDir, "terminaltest-"); err == nil {
			t.Cleanup(func() { os.RemoveAll(dir) })
			return dir
		}
	}
	return t.TempDir()
}

// Rig is a terminal built on fakes only.
type Rig struct {
	Terminal   *terminal.Terminal
	Journal    *journal.Journal
	Screen     *Screen
	Printer    *Printer
	Green, Red *LED
	Buzzer     *Buzzer
	Drawer     *Drawer
	Tamper     *Tamper
	Clock      *clockwork.FakeClock
	Dir        string
	Config     terminal.Config // as given to terminal.New

	closeOnce sync.Once
	closeErr  error
}

// New builds a terminal on fakes; its journal closes when the test ends. It does not run
// it: a test calls a state alone (device/terminal's state tests) or Run.
func New(t testing.TB, o Options) *Rig {
	t.Helper()
	dir := o.Dir
	if dir == "" {
		dir = TempDir(t)
	}
	for _, d := range []string{"journal", "spool", "state"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	cfg := o.Config
	if cfg.PerTicket == 0 && cfg.PerDay == 0 { // the product's limits (device/config decides them)
		l := config.Default().Limits
		cfg.PerTicket, cfg.PerDay = l.PerTicket, l.PerDay
	}
	if cfg.Terminal == "" {
		cfg.Terminal = "T-0001"
	}
	if cfg.StateDir == "" {
		cfg.StateDir = filepath.Join(dir, "state")
	}
	clk, _ := cfg.Clock.(*clockwork.FakeClock)
	if cfg.Clock == nil {
		clk = NewClock()
		cfg.Clock = clk
	}
	spoolDir := filepath.Join(dir, "spool")
	j, err := journal.Open(filepath.Join(dir, "journal"), journal.Options{Terminal: cfg.Terminal, Clock: cfg.Clock, Logger: cfg.Logger,
		HeadCopies: []string{terminal.JournalHeadCopy(cfg.StateDir)}, Witness: terminal.JournalWitness(cfg.StateDir, spoolDir)})
	if err != nil {
		t.Fatal(err)
	}
	r := &Rig{Journal: j, Screen: &Screen{Geometry: o.Geometry}, Green: &LED{}, Red: &LED{},
		Buzzer: &Buzzer{}, Drawer: &Drawer{}, Tamper: &Tamper{}, Clock: clk, Dir: dir}
	t.Cleanup(func() { _ = r.Close() })
	spool := o.Spool
	if spool.Headroom == 0 {
		spool.Headroom = -1
	}
	if r.Printer, err = NewPrinter(spoolDir, spool); err != nil {
		t.Fatal(err)
	}
	parts := terminal.Parts{Screen: r.Screen, Printer: r.Printer, Green: r.Green, Red: r.Red, Buzzer: r.Buzzer,
		Drawer: r.Drawer, Tamper: r.Tamper}
	ls := o.Ledgers
	if ls == nil {
		ls, _ = ledger.NewSet()
	}
	if r.Terminal, err = terminal.New(cfg, parts, terminal.Data{Ledgers: ls, Status: o.Status, Journal: j, Fleet: o.Fleet}); err != nil {
		t.Fatal(err)
	}
	r.Config = cfg
	return r
}

// Run runs the whole machine and the scanner src (nil: none) until the test ends, and
// waits until the terminal is ready (and has taken the scanner's connection).
func (r *Rig) Run(t testing.TB, src terminal.ScanSource) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	t.Cleanup(func() { cancel(); wg.Wait() })
	wg.Add(1)
	go func() { defer wg.Done(); _ = r.Terminal.Run(ctx) }()
	if src != nil {
		wg.Add(1)
		go func() { defer wg.Done(); _ = r.Terminal.RunScanner(ctx, src) }()
	}
	wait, stop := context.WithTimeout(ctx, 10*time.Second)
	defer stop()
	select {
	case <-r.Terminal.Ready():
	case <-wait.Done():
		t.Fatal("terminaltest: terminal not ready")
	}
	if src != nil {
		for !r.Terminal.ScannerPresent() {
			select {
			case <-wait.Done():
				t.Fatal("terminaltest: scanner not taken")
			case <-time.After(100 * time.Microsecond):
			}
		}
	}
}

// Do sends ev to the running machine and waits until it has taken it and waits for the
// next input; it returns the state it waits in.
func (r *Rig) Do(t testing.TB, ev terminal.Event) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	n := r.Terminal.Received()
	if err := r.Terminal.Send(ctx, ev); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Terminal.Settle(ctx, n); err != nil {
		t.Fatal(err)
	}
	return r.Terminal.StateName()
}

// Close closes the journal (a second rig on Dir is the terminal restarted).
func (r *Rig) Close() error {
	r.closeOnce.Do(func() { r.closeErr = r.Journal.Close() })
	return r.closeErr
}
