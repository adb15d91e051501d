package assembly

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/packterm/pos/device/board"
	"github.com/packterm/pos/device/codemap"
	"github.com/packterm/pos/device/config"
	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/device/retail"
	"github.com/packterm/pos/device/terminal"
	"github.com/packterm/pos/drivers/display"
	"github.com/packterm/pos/drivers/printer"
	"github.com/packterm/pos/drivers/scanner"
	"github.com/packterm/pos/drivers/serialport"
	"github.com/packterm/pos/validate/journal"
	"github.com/packterm/pos/validate/ledger"
)

// Data is what the terminal decides with, besides its journal: the ledgers and the pack
// status list (the daemon reads them from the data directory, the emulator takes its demo
// block or --ledger and --packs).
type Data struct {
	Ledgers *ledger.Set       // one per block; nil or empty: none installed
	Status  retail.PackStatus // nil: none
	// AllDelivered: no status list, every pack counts as delivered (the emulator).
	AllDelivered bool
	// Refused is why none of the installed files is used (they failed their checks): the
	// terminal decides nothing and says so.
	Refused error
	// Missing is what was never installed (the daemon's LoadData decides it): the
	// terminal names it at rest (terminal.Config.Missing).
	Missing retail.Missing
	// KeyStatement is the operator key statement's version in force (terminal.Data).
	KeyStatement uint64
	// FirmwareKeyStatement is the version of the firmware key statement in the slot root
	// (0: none; terminal.Data).
	FirmwareKeyStatement uint64
	// Limits is the operator limits statement in force (the daemon's LoadData has
	// verified it): its limits replace the configuration's [limits]. nil: none, the
	// configuration's.
	Limits *ledger.LimitsStatement
}

// Options are what a configuration file does not say: the data, the clocks and the hooks
// of whoever runs the terminal, and the emulator's own settings.
type Options struct {
	Data Data
	// Clock is the terminal's and the journal's clock (nil: real time).
	Clock clockwork.Clock
	// Rand draws the terminal's receipt tag (terminal.Config.Rand; nil: crypto/rand).
	Rand io.Reader
	// WaitClock drives the fleet client's rounds and the keyboard scanner's and the photo
	// directory's waits (nil: real time).
	WaitClock clockwork.Clock
	Logger    *slog.Logger // nil: discard
	// FleetStatus, with [fleet] url, makes the fleet client fetch and install the
	// retailer's pack status list (nil: it does not).
	FleetStatus *fleet.StatusOptions
	// Claimer, when set, is what the terminal claims with instead of the fleet client of
	// [fleet] url (tests: fleet.Fake).
	Claimer fleet.Claimer
	// Alone makes a terminal without [fleet] url claim nothing at all: its journal is the
	// only guard against paying twice and the offline limits do not apply (posd --emulate
	// without --config: the demo terminal). Otherwise a terminal without a fleet claims
	// with fleet.OfflineOnly, as a board does: payouts within [limits]
	// offline_per_ticket only, unconfirmed.
	Alone bool
	// OnJournalReset: see terminal.Config (nil: the terminal says to restart it).
	OnJournalReset func()
	// Observer sees the terminal's scans, records and faults (metrics; nil: none).
	Observer terminal.Observer
	// Screen, when set, wraps the board's panel the terminal shows its screens on (the
	// emulator reports each change).
	Screen func(*board.Board) display.Screen
	// The emulator's settings of the terminal and its drivers; their zero values are a
	// board's (see terminal.Config, scanner.Config, printer.SpoolOptions).
	OpenUnlock bool
	Throttle   terminal.Throttle
	LongPress  time.Duration
	ScanDedup  time.Duration // scanner.Config.DedupWindow (-1: every line is meant)
	ScanMaxLen int           // scanner.Config.MaxLen
	SpoolFS    printer.FS    // the printer spool's filesystem (nil: the real one)
}

// Terminal is an assembled terminal: its parts, open, and the terminal built on them.
type Terminal struct {
	Config   *config.Config
	Retailer uint32 // [terminal] retailer
	Journal  *journal.Journal
	Fleet    *fleet.Client // nil without [fleet] url (or with Options.Claimer)
	Board    *board.Board
	Printer  *printer.Printer
	Scanner  *scanner.Serial
	Photos   *scanner.PhotoDir // [scanner] photos; nil: none
	Terminal *terminal.Terminal
	// KeepPanel makes Close leave the panel as it is, with the red LED on, instead of
	// turning it off (a start fault is on it).
	KeepPanel bool

	closers []func() error
}

// Open builds the terminal cfg describes on hw: journal, fleet client, board, printer,
// scanner, photo directory, terminal. cfg is taken as it is (config.Load and Validate are
// the caller's); hw.Check refuses what hw cannot honour. On an error, what was opened is
// closed.
func Open(cfg *config.Config, hw Hardware, o Options) (t *Terminal, err error) {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if err := hw.Check(cfg); err != nil {
		return nil, err
	}
	a := &Terminal{Config: cfg}
	defer func() {
		if err != nil {
			a.Close()
		}
	}()
	r, err := strconv.ParseUint(cfg.RetailerID, 10, 32)
	if err != nil {
		return nil, fmt.Errorf("assembly: retailer id %q: %w", cfg.RetailerID, err)
	}
	a.Retailer = uint32(r)
	for _, dir := range []string{"journal", "spool", "state"} {
		if err := os.MkdirAll(filepath.Join(cfg.DataDir, dir), 0o700); err != nil {
			return nil, fmt.Errorf("assembly: %w", err)
		}
	}
	if err := a.openJournal(o); err != nil {
		return nil, err
	}
	claimer, err := a.connectFleet(o)
	if err != nil {
		return nil, err
	}
	if err := a.openDevices(hw, o); err != nil {
		return nil, err
	}
	if a.Terminal, err = terminal.New(TerminalConfig(cfg, o), a.parts(o),
		terminal.Data{Ledgers: o.Data.Ledgers, Status: o.Data.Status, Journal: a.Journal, Fleet: claimer,
			KeyStatement: o.Data.KeyStatement, LimitsStatement: limitsVersion(o.Data.Limits),
			FirmwareKeyStatement: o.Data.FirmwareKeyStatement}); err != nil {
		return nil, err
	}
	return a, nil
}

// TerminalConfig is the terminal's configuration from cfg and o: identity, every limit
// (the operator limits statement's when o.Data has one, else [limits]), the technician
// token, the state directory.
func TerminalConfig(cfg *config.Config, o Options) terminal.Config {
	l := ledger.Limits{PerTicket: cfg.Limits.PerTicket, PerDay: cfg.Limits.PerDay,
		OfflinePerTicket: cfg.Limits.OfflinePerTicket, OfflineTotal: cfg.Limits.OfflineTotal}
	if o.Data.Limits != nil {
		l = o.Data.Limits.Limits
	}
	return terminal.Config{
		Terminal: cfg.TerminalID, RetailerName: cfg.RetailerName,
		PerTicket: l.PerTicket, PerDay: l.PerDay,
		OfflinePerTicket: l.OfflinePerTicket, OfflineTotal: l.OfflineTotal,
		StateDir: filepath.Join(cfg.DataDir, "state"), UnlockTokenSHA256: cfg.Technician.TokenSHA256,
		OpenUnlock: o.OpenUnlock, Throttle: o.Throttle, LongPress: o.LongPress,
		AllDelivered: o.Data.AllDelivered, DataRefused: o.Data.Refused != nil, Missing: o.Data.Missing,
		OnJournalReset: o.OnJournalReset, Clock: o.Clock, Rand: o.Rand, Logger: o.Logger,
		Language: cfg.Language, Observer: o.Observer,
	}
}

// BoardConfig is the board cfg describes ([board] profile and pins, [display] size); log
// gets the inputs' events (nil: discarded).
func BoardConfig(cfg *config.Config, log *slog.Logger) board.Config {
	return board.Config{Profile: cfg.Board, Display: cfg.Display.String(), Pins: cfg.PinMap(), Logger: log}
}

func (a *Terminal) onClose(f func() error) { a.closers = append(a.closers, f) }

// Close releases every part, the last opened first.
func (a *Terminal) Close() error {
	var errs []error
	for i := len(a.closers) - 1; i >= 0; i-- {
		errs = append(errs, a.closers[i]())
	}
	a.closers = nil
	return errors.Join(errs...)
}

func (a *Terminal) openJournal(o Options) error {
	cfg := a.Config
	state, spool := filepath.Join(cfg.DataDir, "state"), filepath.Join(cfg.DataDir, "spool")
	j, err := journal.Open(filepath.Join(cfg.DataDir, "journal"), journal.Options{Terminal: cfg.TerminalID, Clock: o.Clock, Logger: o.Logger,
		HeadCopies: []string{terminal.JournalHeadCopy(state)}, Witness: terminal.JournalWitness(state, spool)})
	if err != nil {
		return err
	}
	a.Journal = j
	a.onClose(j.Close)
	if me := j.Missing(); me != nil {
		// Refused, not replaced: the terminal runs on so that a technician can act;
		// nothing is sold or paid.
		o.Logger.Error("posd: journal refused: no sale and no payout until a technician starts a new journal", "reason", me.Reason, "err", me)
	}
	return nil
}

// connectFleet connects to [fleet] url with the terminal's credentials and CA, and returns
// what the terminal claims with: Options.Claimer, the fleet client, nothing (Alone) or
// fleet.OfflineOnly (every claim "unreachable": payouts within [limits]
// offline_per_ticket only, unconfirmed).
func (a *Terminal) connectFleet(o Options) (fleet.Claimer, error) {
	f := a.Config.Fleet
	switch {
	case o.Claimer != nil:
		return o.Claimer, nil
	case f.URL == "" && o.Alone:
		return nil, nil
	case f.URL == "":
		return fleet.OfflineOnly{}, nil
	}
	c, err := fleet.Connect(fleet.Options{
		Terminal: a.Config.TerminalID, URL: f.URL, Credentials: f.Credentials, CA: f.CA, Journal: a.Journal,
		StateDir: filepath.Join(a.Config.DataDir, "state"), Status: o.FleetStatus, Clock: o.WaitClock, Logger: o.Logger,
	})
	if err != nil {
		return nil, fmt.Errorf("assembly: fleet: %w", err)
	}
	a.Fleet = c
	a.onClose(func() error { c.Close(); return nil })
	return c, nil
}

// openDevices opens the board, the printer, the scanner and the photo directory.
func (a *Terminal) openDevices(hw Hardware, o Options) error {
	cfg := a.Config
	b, err := hw.OpenBoard(BoardConfig(cfg, o.Logger))
	if err != nil {
		return err
	}
	a.Board = b
	a.onClose(func() error {
		if a.KeepPanel {
			return b.Red.Set(true)
		}
		return b.Close()
	})
	if err := a.openPrinter(hw, o); err != nil {
		return err
	}
	if err := a.openScanner(hw, o); err != nil {
		return err
	}
	if dir := cfg.Scanner.Photos; dir != "" {
		a.Photos = scanner.NewPhotoDir(dir, scanner.BarcodeDecoder(codemap.DecoderOptions()), scanner.Config{Clock: o.WaitClock, Logger: o.Logger})
	}
	return nil
}

func (a *Terminal) openPrinter(hw Hardware, o Options) error {
	p := a.Config.Printer
	path, err := hw.PrinterPort(p)
	if err != nil {
		return err
	}
	port, err := serialport.Open(serialport.Config{Path: path, Baud: p.Baud, Logger: o.Logger})
	if err != nil {
		return err
	}
	a.onClose(port.Close)
	a.Printer, err = printer.New(port, printer.Config{
		Layout:   printer.Layout{Columns: p.Columns, CodePage: p.CodePage},
		SpoolDir: filepath.Join(a.Config.DataDir, "spool"), Spool: printer.SpoolOptions{FS: o.SpoolFS},
		Baud: p.Baud, NoPrintConfirm: p.NoPrintConfirm(), Logger: o.Logger,
	})
	return err
}

// openScanner opens the scanner: a USB keyboard-wedge scanner through evdev when [scanner]
// input names one (grabbed, typed with [scanner] keymap, reopened by name when unplugged),
// else the serial port.
func (a *Terminal) openScanner(hw Hardware, o Options) error {
	s := a.Config.Scanner
	sc := scanner.Config{Suffix: s.Suffix, AIM: s.AIM, DedupWindow: o.ScanDedup, MaxLen: o.ScanMaxLen, Logger: o.Logger}
	if s.Input != "" {
		kb, err := scanner.NewKeyboard(scanner.KeyboardConfig{Input: s.Input, Keymap: s.Keymap, Clock: o.WaitClock, Logger: o.Logger})
		if err != nil {
			return err
		}
		a.onClose(kb.Close)
		a.Scanner = scanner.NewKeyboardScanner(kb, sc)
		return nil
	}
	path, err := hw.ScannerPort(s)
	if err != nil {
		return err
	}
	port, err := serialport.Open(serialport.Config{Path: path, Baud: s.Baud, Logger: o.Logger})
	if err != nil {
		return err
	}
	a.onClose(port.Close)
	a.Scanner = scanner.NewSerial(port, sc)
	return nil
}

func (a *Terminal) parts(o Options) terminal.Parts {
	b := a.Board
	var scr display.Screen = b.Display
	if o.Screen != nil {
		scr = o.Screen(b)
	}
	return terminal.Parts{Screen: scr, Printer: a.Printer, Green: b.Green, Red: b.Red, Buzzer: b.Buzzer, Drawer: b.Drawer, Tamper: b.Tamper}
}

// Loops are the terminal's loops: the machine, the scanner (and the photo directory), the
// buttons and the board's watchers. Each runs until ctx ends.
func (a *Terminal) Loops() []func(ctx context.Context) error {
	t, b := a.Terminal, a.Board
	loops := []func(context.Context) error{
		t.Run,
		func(ctx context.Context) error { return t.RunScanner(ctx, a.Scanner) },
		func(ctx context.Context) error { return t.RunButtons(ctx, b.OK, b.Cancel, b.Tamper) },
		b.Run,
	}
	if a.Photos != nil {
		loops = append(loops, func(ctx context.Context) error { return t.RunScanner(ctx, a.Photos) })
	}
	return loops
}

// RunFleet runs the fleet client, if any, until ctx ends: it publishes the journal,
// reconciles unconfirmed payouts and, with Options.FleetStatus, fetches the status list.
func (a *Terminal) RunFleet(ctx context.Context) error {
	if a.Fleet == nil {
		return nil
	}
	return a.Fleet.Run(ctx)
}

// NotifyFleet wakes the fleet client, if any, to publish new records at once.
func (a *Terminal) NotifyFleet() {
	if a.Fleet != nil {
		a.Fleet.Notify()
	}
}

// limitsVersion is the statement's version, 0 for none.
func limitsVersion(s *ledger.LimitsStatement) uint64 {
	if s == nil {
		return 0
	}
	return s.Version
}
