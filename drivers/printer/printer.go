package printer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/packterm/pos/drivers/printer/escpos"
	"github.com/packterm/pos/drivers/serialport"
)

// Port is the byte link to the printer; *serialport.Port implements it.
type Port interface {
	io.Writer
	// ReadContext blocks until bytes arrive or ctx ends.
	ReadContext(ctx context.Context, b []byte) (int, error)
	// Discard drops bytes received and not yet read.
	Discard()
}

var _ Port = (*serialport.Port)(nil)

// Config of a printer.
type Config struct {
	Layout Layout
	// SpoolDir keeps receipts until they have printed (required).
	SpoolDir string
	// StatusTimeout bounds the wait for DLE EOT replies (0: 500 ms).
	StatusTimeout time.Duration
	// PollInterval is how often Run checks a faulty printer (0: 2 s).
	PollInterval time.Duration
	Clock        clockwork.Clock
	Logger       *slog.Logger
}

// Printer is an ESC/POS receipt printer. Its methods are safe for concurrent use.
type Printer struct {
	cfg   Config
	port  Port
	spool *Spool

	mu   sync.Mutex
	last escpos.Status
}

// New returns a printer on port; receipts left in the spool by a previous run print at the
// next Print, Flush or Run.
func New(port Port, cfg Config) (*Printer, error) {
	l, err := cfg.Layout.withDefaults()
	if err != nil {
		return nil, err
	}
	cfg.Layout = l
	if cfg.SpoolDir == "" {
		return nil, errors.New("printer: config: no spool directory")
	}
	if cfg.StatusTimeout <= 0 {
		cfg.StatusTimeout = 500 * time.Millisecond
	}
	if cfg.PollInterval <= 0 {
		cfg.PollInterval = 2 * time.Second
	}
	if cfg.Clock == nil {
		cfg.Clock = clockwork.NewRealClock()
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	sp, err := OpenSpool(cfg.SpoolDir)
	if err != nil {
		return nil, err
	}
	return &Printer{cfg: cfg, port: port, spool: sp}, nil
}

// Layout is the effective layout (defaults applied).
func (p *Printer) Layout() Layout { return p.cfg.Layout }

// Status asks the printer for its real-time status (DLE EOT 1, 2, 4, and 3 on error).
func (p *Printer) Status(ctx context.Context) (escpos.Status, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.status(ctx)
}

func (p *Printer) status(ctx context.Context) (escpos.Status, error) {
	st, err := p.ask(ctx, escpos.Status{}, escpos.StatusPrinter, escpos.StatusOffline, escpos.StatusPaper)
	if err == nil && st.Error {
		st, err = p.ask(ctx, st, escpos.StatusError)
	}
	if err == nil {
		p.last = st
	}
	return st, err
}

// ask sends DLE EOT n for each n at once and merges the replies, which come in order.
func (p *Printer) ask(ctx context.Context, st escpos.Status, ns ...byte) (escpos.Status, error) {
	p.port.Discard()
	var req escpos.Builder
	for _, n := range ns {
		req.StatusRequest(n)
	}
	b, _ := req.Bytes()
	if _, err := p.port.Write(b); err != nil {
		return st, fmt.Errorf("printer: status request: %w", err)
	}
	ctx, cancel := p.timeout(ctx)
	defer cancel()
	for _, n := range ns {
		r, err := p.readStatusByte(ctx)
		if err != nil {
			return st, err
		}
		if st, err = escpos.ParseStatus(st, n, r); err != nil {
			return st, err
		}
	}
	return st, nil
}

// timeout is ctx bounded by StatusTimeout on the injected clock. (clockwork.WithTimeout leaves
// its fake timer registered after cancel, which confuses tests that count waiters.)
func (p *Printer) timeout(parent context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(parent)
	t := p.cfg.Clock.NewTimer(p.cfg.StatusTimeout)
	go func() {
		select {
		case <-t.Chan():
			cancel(fmt.Errorf("no reply within %v", p.cfg.StatusTimeout))
		case <-ctx.Done():
		}
	}()
	return ctx, func() {
		t.Stop()
		cancel(nil)
	}
}

// readStatusByte skips whatever is not a DLE EOT reply (ASB blocks, XON/XOFF, 37h 25h 00h).
func (p *Printer) readStatusByte(ctx context.Context) (byte, error) {
	var b [1]byte
	for {
		n, err := p.port.ReadContext(ctx, b[:])
		if err != nil {
			if c := context.Cause(ctx); c != nil {
				err = c
			}
			return 0, fmt.Errorf("printer: status reply: %w", err)
		}
		if n == 1 && escpos.IsStatusByte(b[0]) {
			return b[0], nil
		}
	}
}

// LastStatus is the status read most recently (e.g. to warn of paper near end).
func (p *Printer) LastStatus() escpos.Status {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.last
}

// Print renders r, keeps it in the spool, then prints every waiting receipt in order. A
// rendering error means r is invalid and nothing is kept; a *FaultError means r (and any
// receipts before it) wait in the spool for the fault to clear.
func (p *Printer) Print(ctx context.Context, r Receipt) error {
	data, err := Render(r, p.cfg.Layout)
	if err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, err := p.spool.Put(r.ID, data); err != nil {
		return err
	}
	_, err = p.flush(ctx)
	return err
}

// Pending lists the receipts waiting in the spool.
func (p *Printer) Pending() ([]Spooled, error) { return p.spool.List() }

// Flush prints the waiting receipts if the printer is ready; it returns how many printed.
func (p *Printer) Flush(ctx context.Context) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.flush(ctx)
}

func (p *Printer) fault(kind error, st escpos.Status, err error, interrupted bool) error {
	n := 0
	if list, lerr := p.spool.List(); lerr == nil {
		n = len(list)
	}
	fe := &FaultError{Kind: kind, Status: st, Err: err, Pending: n, Interrupted: interrupted}
	p.cfg.Logger.Warn("printer: fault", "kind", kind.Error(), "status", st.String(), "pending", n, "interrupted", interrupted)
	return fe
}

func (p *Printer) flush(ctx context.Context) (int, error) {
	list, lerr := p.spool.List()
	if lerr != nil {
		p.cfg.Logger.Error("printer: damaged spool file set aside", "err", lerr)
	}
	printed := 0
	for _, job := range list {
		st, err := p.status(ctx)
		if err != nil {
			return printed, p.fault(ErrNoResponse, st, err, false)
		}
		if k := kindOf(st); k != nil {
			return printed, p.fault(k, st, nil, false)
		}
		if _, err := p.port.Write(job.Data); err != nil {
			// Unknown how much printed: the receipt stays and prints whole when the printer is back.
			return printed, p.fault(ErrNoResponse, st, err, true)
		}
		st, err = p.status(ctx)
		if err != nil {
			return printed, p.fault(ErrNoResponse, st, err, true)
		}
		if k := kindOf(st); k != nil {
			// Drop the rest of this copy from the printer's buffers; it prints whole later.
			if _, err := p.port.Write(escpos.ClearBuffers); err != nil {
				return printed, p.fault(k, st, err, true)
			}
			return printed, p.fault(k, st, nil, true)
		}
		if err := p.spool.Remove(job.Seq); err != nil {
			return printed, err
		}
		printed++
		p.cfg.Logger.Info("printer: receipt printed", "id", job.ID, "bytes", len(job.Data))
	}
	return printed, nil
}

// Run retries the spool every PollInterval until ctx ends; it returns ctx's error.
func (p *Printer) Run(ctx context.Context) error {
	t := p.cfg.Clock.NewTicker(p.cfg.PollInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.Chan():
		}
		if list, _ := p.spool.List(); len(list) == 0 {
			continue
		}
		if n, err := p.Flush(ctx); n > 0 || err == nil {
			p.cfg.Logger.Info("printer: spool flushed", "printed", n, "err", err)
		}
	}
}

// OpenDrawer pulses the cash drawer (pin 2, 50 ms).
func (p *Printer) OpenDrawer(ctx context.Context) error {
	var w escpos.Builder
	b, _ := w.Drawer(false, 50, 500).Bytes()
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, err := p.port.Write(b); err != nil {
		return fmt.Errorf("printer: drawer: %w", err)
	}
	return nil
}
