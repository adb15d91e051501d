package daemon

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"

	"github.com/jonboulle/clockwork"

	"github.com/packterm/pos/device/board"
	"github.com/packterm/pos/device/config"
	"github.com/packterm/pos/device/retail"
	"github.com/packterm/pos/device/terminal"
	"github.com/packterm/pos/drivers/printer"
	"github.com/packterm/pos/drivers/scanner"
	"github.com/packterm/pos/drivers/serialport"
	"github.com/packterm/pos/validate/journal"
	"github.com/packterm/pos/validate/ledger"
)

// Data is what the terminal decides with, read from a data directory.
type Data struct {
	Ledger *ledger.Ledger    // nil: none installed
	Status retail.PackStatus // nil: none installed
}

// Close releases the ledger.
func (d *Data) Close() error {
	if d.Ledger != nil {
		return d.Ledger.Close()
	}
	return nil
}

// LoadData opens the ledger installed in dir (the highest block's block-N.ledger; none is
// not an error: the terminal says so on each validation) and the pack status list, both
// verified against trust, the list for this retailer only. A file that is there but fails
// its checks is an error: fail closed.
func LoadData(dir string, trust *ledger.TrustStore, retailer uint32) (*Data, error) {
	d := &Data{}
	names, err := filepath.Glob(filepath.Join(dir, "block-*.ledger"))
	if err != nil {
		return nil, err
	}
	slices.Sort(names)
	if len(names) > 0 {
		if d.Ledger, err = ledger.OpenFile(names[len(names)-1], trust); err != nil {
			return nil, err
		}
	}
	st, err := ledger.LoadStatus(filepath.Join(dir, ledger.StatusFileName), trust)
	switch {
	case err == nil && st.Retailer != retailer:
		d.Close()
		return nil, fmt.Errorf("daemon: pack status list of retailer %d, this terminal is retailer %d: %w", st.Retailer, retailer, ledger.ErrRetailer)
	case err == nil:
		d.Status = st
	case errors.Is(err, fs.ErrNotExist):
	default:
		d.Close()
		return nil, err
	}
	return d, nil
}

// Run runs the terminal on the board of cfg until ctx ends (log nil: discard).
func Run(ctx context.Context, cfg *config.Config, log *slog.Logger) error {
	return RunWith(ctx, cfg, log, nil)
}

// RunWith is Run that calls started (when not nil) once every part is open, before the
// terminal starts.
func RunWith(ctx context.Context, cfg *config.Config, log *slog.Logger, started func(Running)) error {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if err := cfg.Validate(); err != nil {
		return err
	}
	trust, err := ledger.LoadTrustStore(cfg.Keys.Operator...)
	if err != nil {
		return fmt.Errorf("daemon: operator keys: %w", err)
	}
	for _, d := range []string{"journal", "spool", "state"} {
		if err := os.MkdirAll(filepath.Join(cfg.DataDir, d), 0o700); err != nil {
			return fmt.Errorf("daemon: %w", err)
		}
	}
	retailer, err := strconv.ParseUint(cfg.RetailerID, 10, 32)
	if err != nil {
		return fmt.Errorf("daemon: retailer id %q: %w", cfg.RetailerID, err)
	}
	data, err := LoadData(cfg.DataDir, trust, uint32(retailer))
	if err != nil {
		return err
	}
	defer data.Close()
	j, err := journal.Open(filepath.Join(cfg.DataDir, "journal"), journal.Options{Terminal: cfg.TerminalID, Logger: log})
	if err != nil {
		return err
	}
	defer j.Close()
	b, err := board.Open(board.Config{Profile: cfg.Board, Display: cfg.Display.String(), Pins: cfg.PinMap()})
	if err != nil {
		return err
	}
	defer b.Close()
	pport, err := serialport.Open(serialport.Config{Path: cfg.Printer.Port, Baud: cfg.Printer.Baud, Logger: log})
	if err != nil {
		return err
	}
	defer pport.Close()
	pr, err := printer.New(pport, printer.Config{
		Layout:   printer.Layout{Columns: cfg.Printer.Columns, CodePage: cfg.Printer.CodePage},
		SpoolDir: filepath.Join(cfg.DataDir, "spool"), Baud: cfg.Printer.Baud, NoPrintConfirm: cfg.Printer.NoPrintConfirm(), Logger: log,
	})
	if err != nil {
		return err
	}
	sport, err := serialport.Open(serialport.Config{Path: cfg.Scanner.Port, Baud: cfg.Scanner.Baud, Logger: log})
	if err != nil {
		return err
	}
	defer sport.Close()
	sc := scanner.NewSerial(sport, scanner.Config{Suffix: cfg.Scanner.Suffix, AIM: cfg.Scanner.AIM, Logger: log})
	t, err := terminal.New(terminal.Config{
		Terminal: cfg.TerminalID, RetailerName: cfg.RetailerName, PerTicket: cfg.Limits.PerTicket, PerDay: cfg.Limits.PerDay,
		StateDir: filepath.Join(cfg.DataDir, "state"), UnlockTokenSHA256: cfg.Technician.TokenSHA256, Logger: log,
	}, terminal.Parts{Screen: b.Display, Printer: pr, Green: b.Green, Red: b.Red, Buzzer: b.Buzzer, Drawer: b.Drawer, Tamper: b.Tamper},
		terminal.Data{Ledger: data.Ledger, Status: data.Status, Journal: j})
	if err != nil {
		return err
	}
	if cfg.Language != "" && cfg.Language != "fr" {
		log.Warn("posd: only French retailer texts exist; configured language ignored", "language", cfg.Language)
	}
	log.Info("posd: terminal starting", "terminal", cfg.TerminalID, "board", b.Profile.Name, "ledger", data.Ledger != nil, "status list", data.Status != nil)
	h := newHealth()
	h.live.Store(true)
	if started != nil {
		started(Running{Config: cfg, Terminal: t, Journal: j, Board: b, Printer: pr, Data: data, Health: h})
	}
	hctx, stopHealth := context.WithCancel(ctx)
	defer stopHealth()
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i, f := range []func() error{
		func() error { return t.Run(ctx) },
		func() error { return t.RunScanner(ctx, sc) },
		func() error { return t.RunButtons(ctx, b.OK, b.Cancel, b.Tamper) },
		func() error { return b.Run(ctx) },
	} {
		wg.Go(func() {
			errs[i] = f()
			h.live.Store(false)
		})
	}
	healthDone := make(chan struct{})
	go func() {
		defer close(healthDone)
		watchHealth(hctx, h, clockwork.NewRealClock(), log, t.Ready(), data.Ledger != nil, func(ctx context.Context) error {
			_, err := pr.Status(ctx)
			return err
		})
	}()
	wg.Wait()
	stopHealth() // the health watch ends with the terminal
	<-healthDone
	log.Info("posd: terminal stopped")
	return errors.Join(errs...)
}
