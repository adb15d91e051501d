package emulated

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/packterm/pos/device/assembly"
	"github.com/packterm/pos/device/board"
	"github.com/packterm/pos/device/codemap"
	"github.com/packterm/pos/device/config"
	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/device/retail"
	"github.com/packterm/pos/device/terminal"
	"github.com/packterm/pos/drivers/display"
	"github.com/packterm/pos/drivers/display/hd44780emul"
	"github.com/packterm/pos/drivers/printer"
	"github.com/packterm/pos/drivers/printer/printeremul"
	"github.com/packterm/pos/drivers/scanner"
	"github.com/packterm/pos/drivers/scanner/scanneremul"
	"github.com/packterm/pos/validate/journal"
	"github.com/packterm/pos/validate/ledger"
)

// Options of a rig. The terminal is built from a config.Config by the one assembly
// (device/assembly), as a board's is: Config, or the shorthands Terminal … OfflineTotal
// mapped into one (Options.TerminalConfig).
type Options struct {
	// Dir holds the terminal's state: journal, printer spool, state file, device links
	// (the configuration's data directory).
	Dir string
	// Config, when set, is the terminal's configuration, every section of it honoured
	// ([terminal], [limits], [display], [board], [scanner], [printer], [technician],
	// [fleet]) or refused (a keyboard-wedge [scanner] input cannot be emulated); its
	// data_dir is Dir. The shorthands below must then be left zero.
	Config *config.Config
	// Alone, with Config: a terminal without [fleet] url claims nothing and the offline
	// limits do not apply (the demo terminal of posd --emulate without --config); without
	// it, such a terminal claims with fleet.OfflineOnly as a board does. Without Config, a
	// rig without Fleet is alone.
	Alone bool
	// Shorthands of a configuration, for tests (zero: config.Emulated's, the terminal's
	// defaults): the terminal id (default "EMU-0001"), the retailer's name (default
	// "TABAC DE LA GARE (ÉMULATEUR)"), the display ("16x2" or "20x4", the default), the
	// pay limits in cents (0: config.Emulated's), the most paid a ticket with the fleet
	// out of reach and the most the unconfirmed payouts not yet claimed add up to (see
	// terminal.Config), the technician token ("": any unlock, on the emulator), and the
	// language of the screens and receipts ("fr", the default, or "en").
	Terminal, RetailerName, Display, Language string
	PerTicket, PerDay                         int64
	OfflinePerTicket, OfflineTotal            int64
	UnlockTokenSHA256                         string

	Ledgers      []*ledger.Ledger // one per block (two of one block: Start fails)
	Status       retail.PackStatus
	AllDelivered bool
	Throttle     terminal.Throttle
	LongPress    time.Duration // see terminal.Config (0: 3 s)
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
	// Fleet, when set, claims each ticket fleet-wide before it is paid, instead of the
	// fleet client of the configuration's [fleet] url (tests: fleet.Fake).
	Fleet fleet.Claimer
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
	Ledgers  *ledger.Set   // Options.Ledgers by block
	Fleet    *fleet.Client // the fleet client of [fleet] url; nil: none
	Config   *config.Config

	opts     Options
	asm      *assembly.Terminal
	fake     *clockwork.FakeClock // the clock Step moves (nil: none)
	receipts receiptLog
	cancel   context.CancelFunc
	wg       sync.WaitGroup
	errs     chan error
	closed   sync.Once
}

// TerminalConfig is the configuration the rig's terminal is built from: Options.Config,
// else the shorthands on config.Emulated; its data directory is Dir.
func (o Options) TerminalConfig() (*config.Config, error) {
	if o.Config != nil {
		if o.Terminal != "" || o.RetailerName != "" || o.Display != "" || o.PerTicket != 0 || o.PerDay != 0 ||
			o.OfflinePerTicket != 0 || o.OfflineTotal != 0 || o.UnlockTokenSHA256 != "" || o.Language != "" {
			return nil, errors.New("emulated: Options.Config and a shorthand of it (Terminal, Display, PerTicket…): the configuration says it")
		}
		c := *o.Config
		c.DataDir = o.Dir
		return &c, nil
	}
	c := config.Emulated()
	c.TerminalID = cmp.Or(o.Terminal, "EMU-0001")
	c.RetailerName = cmp.Or(o.RetailerName, "TABAC DE LA GARE (ÉMULATEUR)")
	c.DataDir = o.Dir
	g, err := board.ParseGeometry(o.Display)
	if err != nil {
		return nil, fmt.Errorf("emulated: %w", err)
	}
	c.Display = config.Display{Cols: g.Cols, Rows: g.Rows}
	c.Limits = config.Limits{PerTicket: cmp.Or(o.PerTicket, c.Limits.PerTicket), PerDay: cmp.Or(o.PerDay, c.Limits.PerDay),
		OfflinePerTicket: o.OfflinePerTicket, OfflineTotal: o.OfflineTotal}
	c.Technician.TokenSHA256 = o.UnlockTokenSHA256
	c.Language = cmp.Or(o.Language, c.Language)
	c.Scanner.AIM = true // the rig's scanner sends AIM identifiers
	return &c, nil
}

// Start builds the rig and runs it until ctx ends or Close.
func Start(ctx context.Context, o Options) (r *Rig, err error) {
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
	if r.Config, err = o.TerminalConfig(); err != nil {
		return nil, err
	}
	if r.Ledgers, err = ledger.NewSet(o.Ledgers...); err != nil {
		return nil, fmt.Errorf("emulated: %w", err)
	}
	if r.asm, err = assembly.Open(r.Config, &hardware{r: r}, assembly.Options{
		Data:  assembly.Data{Ledgers: r.Ledgers, Status: o.Status, AllDelivered: o.AllDelivered},
		Clock: o.Clock, Rand: o.rand(), Logger: o.Logger, Claimer: o.Fleet, Alone: o.Alone || (o.Config == nil && o.Fleet == nil),
		Screen: func(b *board.Board) display.Screen {
			return &watchedScreen{Dev: b.Display, lcd: b.Emulator.LCD, on: o.OnScreen}
		},
		OpenUnlock: true, Throttle: o.Throttle, LongPress: o.LongPress, Observer: o.Observer,
		// Every line of a script is meant: no de-duplication of repeated codes.
		ScanDedup: -1, ScanMaxLen: ScanMaxLen, SpoolFS: o.SpoolFS,
	}); err != nil {
		return nil, err
	}
	a := r.asm
	r.Terminal, r.Journal, r.Board, r.Driver, r.Fleet = a.Terminal, a.Journal, a.Board, a.Printer, a.Fleet
	if err := r.startReceipts(); err != nil {
		return nil, err
	}
	r.Images = scanner.NewImages(scanner.BarcodeDecoder(codemap.DecoderOptions()), scanner.Config{DedupWindow: -1, Logger: o.Logger})
	ctx, r.cancel = context.WithCancel(ctx)
	for _, loop := range a.Loops() {
		r.goRun(func() error { return loop(ctx) })
	}
	if a.Fleet != nil {
		r.goRun(func() error { return a.RunFleet(ctx) })
	}
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
	if r.asm != nil {
		errs = append(errs, r.asm.Close())
	}
	if r.Printer != nil {
		errs = append(errs, r.Printer.Close())
	}
	if r.Scanner != nil {
		errs = append(errs, r.Scanner.Close())
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
