package emulated

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/packterm/pos/device/board"
	"github.com/packterm/pos/device/codemap"
	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/device/retail"
	"github.com/packterm/pos/device/terminal"
	"github.com/packterm/pos/drivers/display"
	"github.com/packterm/pos/drivers/display/hd44780emul"
	"github.com/packterm/pos/drivers/gpiosim"
	"github.com/packterm/pos/drivers/printer"
	"github.com/packterm/pos/drivers/printer/printeremul"
	"github.com/packterm/pos/drivers/scanner"
	"github.com/packterm/pos/drivers/scanner/scanneremul"
	"github.com/packterm/pos/drivers/serialport"
	"github.com/packterm/pos/validate/journal"
	"github.com/packterm/pos/validate/ledger"
)

// Options of a rig.
type Options struct {
	// Dir holds the terminal's state: journal, printer spool, state file, device links.
	Dir          string
	Terminal     string           // default "EMU-0001"
	RetailerName string           // default "TABAC DE LA GARE (ÉMULATEUR)"
	Display      string           // "16x2" or "20x4" (default)
	Ledgers      []*ledger.Ledger // one per block (two of one block: Start fails)
	Status       retail.PackStatus
	AllDelivered bool
	// PerTicket and PerDay are the pay limits in cents (0: 150 € and 5 000 €).
	PerTicket, PerDay int64
	Throttle          terminal.Throttle
	LongPress         time.Duration // see terminal.Config (0: 3 s)
	UnlockTokenSHA256 string        // see terminal.Config ("": any unlock, on the emulator)
	// Clock is the terminal's and the journal's clock (nil: real); drivers run on real time.
	Clock clockwork.Clock
	// Step, with a *clockwork.FakeClock as Clock, makes a run reproducible: each input of
	// the line language (Do, Apply) moves the clock forward by Step before it is applied,
	// and a wait of the terminal that comes due on the way times out first (NewVirtualClock).
	Step   time.Duration
	Logger *slog.Logger
	// OnScreen is called with what the emulated panel shows after each change, one
	// character per cell (a custom glyph as the character it draws: hd44780emul.Screen).
	OnScreen func(lines []string)
	// OnReceipt is called with each receipt the emulated printer cuts (n counts from 1).
	OnReceipt func(n int, r printeremul.Receipt)
	// Fleet, when set, claims each ticket fleet-wide before it is paid; OfflineLimit is
	// the most it pays a ticket when the fleet is out of reach, OfflineTotal the most its
	// unconfirmed payouts not yet claimed add up to (see terminal.Config).
	Fleet                      fleet.Claimer
	OfflineLimit, OfflineTotal int64
	// Aliases names codes for scripts: a line "@NAME" scans Aliases[NAME] (Demo.Aliases).
	Aliases map[string]string
	// SpoolFS is the printer spool's filesystem (nil: the real one); tests make it full or
	// read-only (spooltest.FaultFS).
	SpoolFS printer.FS
	// ReceiptsDir, when set, gets each receipt as NNNN.txt and NNNN.png (numbering goes on
	// from the files already there).
	ReceiptsDir string
	// Observer sees the terminal's scans, records and faults (device/metrics); nil: none.
	Observer terminal.Observer
}

// Rig is a whole terminal on emulated hardware.
type Rig struct {
	Terminal *terminal.Terminal
	Journal  *journal.Journal
	Board    *board.Board
	Printer  *printeremul.Emulator
	Driver   *printer.Printer // the terminal's printer driver, on the emulated printer
	Scanner  *scanneremul.Emulator
	Images   *scanner.Images
	Ledgers  *ledger.Set // Options.Ledgers by block

	opts     Options
	fake     *clockwork.FakeClock // the clock Step moves (nil: none)
	receipts receiptLog
	ports    []*serialport.Port
	cancel   context.CancelFunc
	wg       sync.WaitGroup
	errs     chan error
	closed   sync.Once
}

// Start builds the rig and runs it until ctx ends or Close.
func Start(ctx context.Context, o Options) (r *Rig, err error) {
	if o.Terminal == "" {
		o.Terminal = "EMU-0001"
	}
	if o.RetailerName == "" {
		o.RetailerName = "TABAC DE LA GARE (ÉMULATEUR)"
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Clock == nil {
		o.Clock = clockwork.NewRealClock()
	}
	rig := &Rig{opts: o, errs: make(chan error, 8)}
	r = rig
	if o.Step != 0 {
		fake, ok := o.Clock.(*clockwork.FakeClock)
		if !ok || o.Step < 0 {
			return nil, fmt.Errorf("emulated: a clock step (%s) needs a positive step and a fake clock", o.Step)
		}
		r.fake = fake
	}
	defer func() {
		if err != nil { // r is nil by then: release what rig holds
			rig.release()
		}
	}()
	for _, d := range []string{"journal", "spool", "state"} {
		if err := os.MkdirAll(filepath.Join(o.Dir, d), 0o700); err != nil {
			return nil, fmt.Errorf("emulated: %w", err)
		}
	}
	state, spool := filepath.Join(o.Dir, "state"), filepath.Join(o.Dir, "spool")
	if r.Journal, err = journal.Open(filepath.Join(o.Dir, "journal"), journal.Options{Terminal: o.Terminal, Clock: o.Clock, Logger: o.Logger,
		HeadCopies: []string{terminal.JournalHeadCopy(state)}, Witness: terminal.JournalWitness(state, spool)}); err != nil {
		return nil, err
	}
	if r.Board, err = board.Open(board.Config{Emulate: true, Display: o.Display, DisplayClock: gpiosim.NewClock()}); err != nil {
		return nil, err
	}
	pr, err := r.openPrinter()
	if err != nil {
		return nil, err
	}
	sc, err := r.openScanner()
	if err != nil {
		return nil, err
	}
	scr := &watchedScreen{Dev: r.Board.Display, lcd: r.Board.Emulator.LCD, on: o.OnScreen}
	parts := terminal.Parts{Screen: scr, Printer: pr, Green: r.Board.Green, Red: r.Board.Red,
		Buzzer: r.Board.Buzzer, Drawer: r.Board.Drawer, Tamper: r.Board.Tamper}
	cfg := terminal.Config{Terminal: o.Terminal, RetailerName: o.RetailerName, PerTicket: o.PerTicket, PerDay: o.PerDay,
		StateDir: filepath.Join(o.Dir, "state"), Throttle: o.Throttle, LongPress: o.LongPress, UnlockTokenSHA256: o.UnlockTokenSHA256, OpenUnlock: true, AllDelivered: o.AllDelivered,
		OfflineLimit: o.OfflineLimit, OfflineTotal: o.OfflineTotal, Observer: o.Observer, Clock: o.Clock, Logger: o.Logger}
	if r.Ledgers, err = ledger.NewSet(o.Ledgers...); err != nil {
		return nil, fmt.Errorf("emulated: %w", err)
	}
	if r.Terminal, err = terminal.New(cfg, parts, terminal.Data{Ledgers: r.Ledgers, Status: o.Status, Journal: r.Journal, Fleet: o.Fleet}); err != nil {
		return nil, err
	}
	if err := r.startReceipts(); err != nil {
		return nil, err
	}
	r.Images = scanner.NewImages(scanner.BarcodeDecoder(codemap.DecoderOptions()), scanner.Config{DedupWindow: -1, Logger: o.Logger})
	ctx, r.cancel = context.WithCancel(ctx)
	r.goRun(func() error { return r.Terminal.Run(ctx) })
	r.goRun(func() error { return r.Terminal.RunScanner(ctx, sc) })
	r.goRun(func() error { return r.Terminal.RunButtons(ctx, r.Board.OK, r.Board.Cancel, r.Board.Tamper) })
	r.goRun(func() error { return r.Board.Run(ctx) })
	r.goRun(func() error { return r.watchReceipts(ctx) })
	if err := r.waitStarted(ctx); err != nil {
		r.cancel()
		r.wg.Wait()
		return nil, err
	}
	return r, nil
}

// waitStarted waits until the terminal is ready and has taken the scanner's "connected".
func (r *Rig) waitStarted(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, SettleTimeout)
	defer cancel()
	for !r.Terminal.ScannerPresent() {
		select {
		case <-ctx.Done():
			return fmt.Errorf("emulated: terminal not started: %w", ctx.Err())
		case <-time.After(time.Millisecond):
		}
	}
	_, err := r.Terminal.Settle(ctx, r.Terminal.Received()-1)
	return err
}

func (r *Rig) goRun(f func() error) {
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		if err := f(); err != nil && !errors.Is(err, context.Canceled) {
			r.opts.Logger.Error("emulated: worker stopped", "err", err)
			select {
			case r.errs <- err:
			default:
			}
		}
	}()
}

// Errors delivers the errors of workers that stopped.
func (r *Rig) Errors() <-chan error { return r.errs }

func link(dir, name string) string {
	p := filepath.Join(dir, name)
	_ = os.Remove(p) // a link left by a killed run
	return p
}

func (r *Rig) openPrinter() (*printer.Printer, error) {
	emu, err := printeremul.NewEmulator(link(r.opts.Dir, "printer.tty"), printeremul.Config{Columns: 48, Logger: r.opts.Logger})
	if err != nil {
		return nil, err
	}
	r.Printer = emu
	port, err := serialport.Open(serialport.Config{Path: emu.Path(), Logger: r.opts.Logger})
	if err != nil {
		return nil, err
	}
	r.ports = append(r.ports, port)
	r.Driver, err = printer.New(port, printer.Config{Layout: printer.Layout{Columns: 48}, SpoolDir: filepath.Join(r.opts.Dir, "spool"),
		Spool: printer.SpoolOptions{FS: r.opts.SpoolFS}, Logger: r.opts.Logger})
	return r.Driver, err
}

func (r *Rig) openScanner() (*scanner.Serial, error) {
	emu, err := scanneremul.New(link(r.opts.Dir, "scanner.tty"), scanneremul.Config{Suffix: scanner.CR, AIM: true})
	if err != nil {
		return nil, err
	}
	r.Scanner = emu
	port, err := serialport.Open(serialport.Config{Path: emu.Path(), Logger: r.opts.Logger})
	if err != nil {
		return nil, err
	}
	r.ports = append(r.ports, port)
	// Every line of a script is meant: no de-duplication of repeated codes.
	return scanner.NewSerial(port, scanner.Config{Suffix: scanner.CR, AIM: true, DedupWindow: -1, MaxLen: ScanMaxLen, Logger: r.opts.Logger}), nil
}

// Close stops the rig and releases its devices.
func (r *Rig) Close() error {
	var err error
	r.closed.Do(func() {
		if r.cancel != nil {
			r.cancel()
		}
		r.wg.Wait()
		err = r.release()
	})
	return err
}

func (r *Rig) release() error {
	var errs []error
	for _, p := range r.ports {
		errs = append(errs, p.Close())
	}
	if r.Printer != nil {
		errs = append(errs, r.Printer.Close())
	}
	if r.Scanner != nil {
		errs = append(errs, r.Scanner.Close())
	}
	if r.Board != nil {
		errs = append(errs, r.Board.Close())
	}
	if r.Journal != nil {
		errs = append(errs, r.Journal.Close())
	}
	return errors.Join(errs...)
}

// watchedScreen reports what the emulated panel shows after each change. It is the board's
// panel driver itself, whose R/W line the emulated board wires: the terminal reads the
// emulated panel back (terminal.PanelReader) as it would a board's.
type watchedScreen struct {
	*display.Dev
	lcd *hd44780emul.Device
	on  func([]string)
}

var _ terminal.PanelReader = (*watchedScreen)(nil)

func (w *watchedScreen) Show(lines ...string) error {
	err := w.Dev.Show(lines...)
	if w.on != nil {
		w.on(w.lcd.Screen())
	}
	return err
}
