package daemon

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/packterm/pos/device/assembly"
	"github.com/packterm/pos/device/board"
	"github.com/packterm/pos/device/config"
	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/device/retail"
	"github.com/packterm/pos/device/terminal"
	"github.com/packterm/pos/drivers/printer"
	"github.com/packterm/pos/firmware/flash"
	"github.com/packterm/pos/firmware/slot"
	"github.com/packterm/pos/firmware/watchdog"
	"github.com/packterm/pos/validate/journal"
	"github.com/packterm/pos/validate/ledger"
)

// Options of Run. The zero value runs the terminal alone: no service manager, no slot.
type Options struct {
	Logger *slog.Logger // nil: discard
	// Started, when set, is called once every part is open (and the maintenance link
	// listening), before the terminal starts.
	Started func(Running)
	// Clock drives the daemon's own waits: health retries, watchdog pings, the restart's
	// quiet period and polls, the fleet client's rounds (nil: real time). The terminal and
	// the drivers keep real time.
	Clock clockwork.Clock
	// ConfigPath is the configuration file posd runs with: a configuration provisioned over
	// the maintenance link replaces it ("": configurations are refused).
	ConfigPath string
	// Notifier tells the service manager READY=1 and WATCHDOG=1 (nil: nobody); Watchdog is
	// the watchdog period (systemd's WatchdogSec; 0: no pings).
	Notifier *watchdog.Notifier
	Watchdog time.Duration
	// Booted is the firmware slot posboot started posd from (nil: not started by posboot:
	// no trial to commit, and no firmware over the maintenance link).
	Booted *slot.Booted
	// RestartQuiet is how long the maintenance link must have been quiet before a restart
	// takes in what was installed (0: DefaultRestartQuiet).
	RestartQuiet time.Duration
	// FleetStatusEvery is how often the fleet's pack status list is fetched (0: the fleet
	// client's default, 10 min).
	FleetStatusEvery time.Duration
	// Hardware is where the board's parts are (nil: the board's GPIO and serial ports,
	// assembly.Board).
	Hardware assembly.Hardware
	// StartFault, when set, sees the rows shown on the panel when the daemon cannot start
	// (a read-only data tree, …), before Run returns the error.
	StartFault func(lines []string)
	// Observer sees the terminal's scans, records and faults (posd's metrics); nil: none.
	Observer terminal.Observer
}

// run is one run of the daemon: its parts, opened by open and released by close.
type run struct {
	cfg      *config.Config
	o        Options
	log      *slog.Logger
	clock    clockwork.Clock
	retailer uint32
	trust    *ledger.TrustStore
	data     *Data
	j        *journal.Journal
	b        *board.Board
	pr       *printer.Printer
	t        *terminal.Terminal
	fleet    *fleet.Client // nil: no [fleet] url
	maint    *flash.Server // nil: no maintenance link
	restart  *restarter
	closers  []func() error
	// asm is the assembled terminal (nil until assembled). A start fault on the panel
	// stays there when it closes (posd exits and the service manager starts it again,
	// which shows it again).
	asm *assembly.Terminal

	// keyStatement is the installed operator key statement's version (0: none).
	keyStatement uint64
	// firmwareKeyStatement is the version of the firmware key statement in the slot root
	// posboot started posd from (0: none, or no slot root).
	firmwareKeyStatement uint64
}

// Run runs the terminal on the board of cfg until ctx ends (nil then), or until it stops
// to take in what its maintenance link or the fleet installed (a *RestartError wrapping
// ErrRestart: start it again).
func Run(ctx context.Context, cfg *config.Config, o Options) error {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Clock == nil {
		o.Clock = clockwork.NewRealClock()
	}
	if o.RestartQuiet <= 0 {
		o.RestartQuiet = DefaultRestartQuiet
	}
	d := &run{cfg: cfg, o: o, log: o.Logger, clock: o.Clock, restart: newRestarter()}
	defer d.close()
	if err := d.open(); err != nil {
		return d.startFault(err) // on the panel before posd exits
	}
	return d.serve(ctx)
}

func (d *run) onClose(f func() error) { d.closers = append(d.closers, f) }

func (d *run) close() {
	for i := len(d.closers) - 1; i >= 0; i-- {
		if err := d.closers[i](); err != nil {
			d.log.Warn("posd: closing", "err", err)
		}
	}
}

// open opens every part: keys, data, then the terminal as the configuration describes it
// (assembly: journal, fleet client, board, printer, scanner), and the maintenance link.
func (d *run) open() error {
	cfg := d.cfg
	if err := cfg.Validate(); err != nil {
		return err
	}
	var err error
	// The operator trust in force: the installed key statement, else the anchors the
	// terminal was flashed with (docs/ledger.md, "Trust").
	stmt := filepath.Join(cfg.DataDir, ledger.KeyStatementFile)
	if d.trust, err = ledger.LoadTrust(stmt, cfg.Keys.Operator...); err != nil {
		return fmt.Errorf("daemon: operator keys: %w", err)
	}
	if s, err := ledger.LoadKeyStatement(stmt); err == nil { // LoadTrust has read it whole
		d.keyStatement = s.Version()
	}
	d.firmwareKeyStatement = d.firmwareStatementVersion()
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		return fmt.Errorf("daemon: %w", err)
	}
	r, err := strconv.ParseUint(cfg.RetailerID, 10, 32)
	if err != nil {
		return fmt.Errorf("daemon: retailer id %q: %w", cfg.RetailerID, err)
	}
	d.retailer = uint32(r)
	if d.data, err = LoadData(cfg.DataDir, d.trust, cfg.TerminalID, d.retailer); err != nil {
		// Fail closed without going dark: no ledger and no list are used (a damaged list
		// would hide stolen packs), and the terminal, its maintenance link and the fleet
		// client start so that good files can be installed.
		d.log.Error("posd: installed data refused: no sale and no validation until good files are installed", "err", err)
		d.data = &Data{Refused: err}
	}
	d.onClose(d.data.Close)
	if err := d.assemble(); err != nil {
		return err
	}
	d.maint, err = d.maintenance()
	return err
}

// assemble builds the terminal of the configuration on the board (assembly.Open).
func (d *run) assemble() error {
	a, err := assembly.Open(d.cfg, d.hardware(), assembly.Options{
		Data: assembly.Data{Ledgers: d.data.Ledgers, Status: d.data.Status, Refused: d.data.Refused, Missing: d.data.Missing,
			KeyStatement: d.keyStatement, FirmwareKeyStatement: d.firmwareKeyStatement, Limits: d.data.Limits},
		WaitClock: d.clock, Logger: d.log,
		FleetStatus: &fleet.StatusOptions{Retailer: d.retailer, Dir: d.cfg.DataDir, Trust: d.trust,
			Every: d.o.FleetStatusEvery, Installed: d.statusFromFleet},
		OnJournalReset: func() { d.restart.request("journal started afresh by a technician") },
		Observer:       d.o.Observer,
	})
	if err != nil {
		return err
	}
	d.asm = a
	d.onClose(a.Close)
	d.j, d.fleet, d.b, d.pr, d.t = a.Journal, a.Fleet, a.Board, a.Printer, a.Terminal
	return nil
}

// hardware is Options.Hardware, else the board's.
func (d *run) hardware() assembly.Hardware {
	if d.o.Hardware != nil {
		return d.o.Hardware
	}
	return assembly.Board{}
}

// openBoard opens the board, for a start fault, unless the terminal's is open; closing it
// leaves the start fault on the panel.
func (d *run) openBoard() (*board.Board, error) {
	if d.b != nil {
		return d.b, nil
	}
	b, err := d.hardware().OpenBoard(assembly.BoardConfig(d.cfg, d.log))
	if err != nil {
		return nil, err
	}
	d.b = b
	d.onClose(func() error { return b.Red.Set(true) })
	return b, nil
}

// startFault shows why the daemon cannot start on the panel (DÉMARRAGE IMPOSSIBLE, and
// ÉCRITURE IMPOSSIBLE for a read-only data tree, DISQUE PLEIN for a full one), with the red
// LED, and returns err: the retailer sees a fault, not a blank panel, before posd exits.
func (d *run) startFault(err error) error {
	b, berr := d.openBoard()
	if berr != nil {
		d.log.Error("posd: cannot start, and the panel cannot say so", "err", err, "board", berr)
		return err
	}
	f := retail.StartFaultOf(err)
	lines := retail.MustLayout(retail.StartFaultScreen(f), b.Display.Cols(), b.Display.Rows())
	if serr := errors.Join(b.Display.Show(lines...), b.Red.Set(true)); serr != nil {
		d.log.Error("posd: start fault not shown", "err", serr)
	}
	if d.asm != nil {
		d.asm.KeepPanel = true
	}
	d.log.Error("posd: cannot start: the panel says so", "screen", strings.Join(lines, " / "), "err", err)
	if d.o.StartFault != nil {
		d.o.StartFault(lines)
	}
	return err
}

// serve runs the terminal's loops and the daemon's workers until ctx ends or a restart
// is due; every one of them has returned when it returns.
func (d *run) serve(ctx context.Context) error {
	rctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	var workers sync.WaitGroup // they end with rctx, stopped once the loops have ended
	maintAddr := d.startMaintenance(rctx, &workers)
	d.log.Info("posd: terminal starting", "terminal", d.cfg.TerminalID, "board", d.b.Profile.Name, "ledger blocks", d.data.Ledgers.Blocks(),
		"status list", d.data.Status != nil, "fleet", d.cfg.Fleet.URL != "", "maintenance", maintAddr)
	if m := d.data.Missing; m != 0 {
		d.log.Warn("posd: not provisioned: the panel says what to install", "missing", m.String(),
			"how", provisionHint(m))
	}
	h := newHealth()
	h.live.Store(true)
	if d.o.Started != nil {
		d.o.Started(Running{Config: d.cfg, Terminal: d.t, Journal: d.j, Board: d.b, Printer: d.pr, Data: d.data, Health: h, Booted: d.o.Booted,
			Maintenance: maintAddr, Fleet: d.fleet})
	}
	var loops sync.WaitGroup
	runs := d.asm.Loops()
	errs := make([]error, len(runs))
	for i, f := range runs {
		loops.Go(func() {
			errs[i] = f(rctx)
			h.live.Store(false)
		})
	}
	d.startWorkers(rctx, &workers, h, stop)
	loops.Wait()
	stop(nil)
	workers.Wait()
	if err := d.o.Notifier.Notify("STOPPING=1"); err != nil {
		d.log.Warn("posd: service manager: STOPPING", "err", err)
	}
	var re *RestartError
	if errors.As(context.Cause(rctx), &re) {
		d.log.Info("posd: terminal stopped for a restart", "why", re.Why)
		return errors.Join(append([]error{re}, errs...)...)
	}
	d.log.Info("posd: terminal stopped")
	return errors.Join(errs...)
}

// startMaintenance starts the maintenance link, if any, and returns the address it
// listens on once it does ("" when off or when it could not listen: logged).
func (d *run) startMaintenance(ctx context.Context, workers *sync.WaitGroup) string {
	if d.maint == nil {
		return ""
	}
	ready := make(chan string, 1)
	done := make(chan struct{})
	workers.Go(func() {
		defer close(done)
		d.serveMaintenance(ctx, d.maint, ready)
	})
	select {
	case addr := <-ready:
		return addr
	case <-done:
	case <-ctx.Done():
	}
	return ""
}

// startWorkers starts the daemon's workers beside the terminal: health, service manager
// (READY, watchdog), trial commit, restart, fleet client. They all end with ctx.
func (d *run) startWorkers(ctx context.Context, workers *sync.WaitGroup, h *Health, stop context.CancelCauseFunc) {
	workers.Go(func() {
		watchHealth(ctx, h, d.clock, d.log, d.t.Ready(), d.noData(), func(ctx context.Context) error {
			_, err := d.pr.Status(ctx)
			return err
		})
	})
	workers.Go(func() {
		serviceManager(ctx, d.o.Notifier, d.clock, d.o.Watchdog, d.t.Ready(), watchdogTest(h, d.o.Booted), d.log)
	})
	workers.Go(func() { commitTrial(ctx, h, d.o.Booted, d.log) })
	gate := restartGate{clock: d.clock, quiet: d.o.RestartQuiet, atRest: d.t.AtRest}
	if d.maint != nil {
		gate.lastActivity = d.maint.LastActivity
	}
	workers.Go(func() { d.restart.run(ctx, gate, d.log, stop) })
	if d.fleet != nil {
		workers.Go(func() {
			if err := d.asm.RunFleet(ctx); err != nil {
				d.log.Error("posd: fleet client stopped", "err", err)
			}
		})
	}
}

// noData is why the terminal cannot decide (nil when it can): its journal was refused,
// the installed files were refused, or none is installed.
func (d *run) noData() error {
	switch {
	case d.j.Missing() != nil:
		return d.j.Health()
	case d.data.Refused != nil:
		return d.data.Refused
	case d.data.Ledgers.Len() == 0:
		return ErrNoLedger
	}
	return nil
}
