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
	// Profile of the model (zero value: DefaultProfile); see ProfileByName.
	Profile Profile
	// Layout, where its fields are set, overrides the profile's columns and code page.
	Layout Layout
	// SpoolDir keeps receipts until they have printed (required).
	SpoolDir string
	// Spool tunes the spool: its filesystem (tests inject faults) and the headroom kept
	// free on it (SpoolOptions).
	Spool SpoolOptions
	// StatusTimeout bounds the wait for DLE EOT replies (0: 500 ms).
	StatusTimeout time.Duration
	// PollInterval is how often Run checks a faulty printer (0: 2 s).
	PollInterval time.Duration
	// Baud of the line, to allow for the time a receipt takes to transmit (0: 9600).
	Baud int
	// PrintTimeout bounds the wait for the printer to confirm a receipt has printed (0: 10 s).
	PrintTimeout time.Duration
	// NoPrintConfirm: never send GS ( H, whatever the profile says (status polling only).
	NoPrintConfirm bool
	// ProbeTimeout bounds the wait for the answer to the one GS ( H probe (0: 500 ms).
	ProbeTimeout time.Duration
	// StatusPoll is the interval of DLE EOT polls while a receipt prints in status polling
	// mode (0: 250 ms), PollSettle how long they go on after the receipt has been sent
	// (0: 1.5 s, the time a TM-T88IV-class printer takes for a 40-line receipt).
	StatusPoll time.Duration
	PollSettle time.Duration
	Clock      clockwork.Clock
	Logger     *slog.Logger
}

// Printer is an ESC/POS receipt printer. Its methods are safe for concurrent use.
type Printer struct {
	cfg   Config
	port  Port
	spool *Spool

	mu     sync.Mutex
	last   escpos.Status
	seq    int  // process IDs
	mode   Mode // how printing is confirmed; ModeUnknown until probed
	probed bool // mode came from a probe (forgotten when the link fails)
}

// New returns a printer on port; receipts left in the spool by a previous run print at the
// next Print, Flush or Run.
func New(port Port, cfg Config) (*Printer, error) {
	if cfg.Profile.Name == "" {
		cfg.Profile = DefaultProfile()
	}
	l := cfg.Profile.Layout()
	if cfg.Layout.Columns != 0 {
		l.Columns = cfg.Layout.Columns
	}
	if cfg.Layout.CodePage != 0 {
		l.CodePage = cfg.Layout.CodePage
	}
	l, err := l.withDefaults()
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
	if cfg.Baud <= 0 {
		cfg.Baud = 9600
	}
	if cfg.PrintTimeout <= 0 {
		cfg.PrintTimeout = 10 * time.Second
	}
	if cfg.ProbeTimeout <= 0 {
		cfg.ProbeTimeout = 500 * time.Millisecond
	}
	if cfg.StatusPoll <= 0 {
		cfg.StatusPoll = 250 * time.Millisecond
	}
	if cfg.PollSettle <= 0 {
		cfg.PollSettle = 1500 * time.Millisecond
	}
	if cfg.Clock == nil {
		cfg.Clock = clockwork.NewRealClock()
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	sp, err := OpenSpool(cfg.SpoolDir, cfg.Spool)
	if err != nil {
		return nil, err
	}
	p := &Printer{cfg: cfg, port: port, spool: sp}
	switch {
	case cfg.NoPrintConfirm || cfg.Profile.ProcessID == Unsupported:
		p.mode = ModeStatusPolling
	case cfg.Profile.ProcessID == Supported:
		p.mode = ModeProcessID
	}
	if p.mode != ModeUnknown {
		cfg.Logger.Info("printer: print confirmation mode", "mode", p.mode.String(), "profile", cfg.Profile.Name)
	}
	return p, nil
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
		p.linkFailed()
		return st, fmt.Errorf("printer: status request: %w", err)
	}
	ctx, cancel := p.timeout(ctx, p.cfg.StatusTimeout)
	defer cancel()
	r, _, err := p.collect(ctx, len(ns), nil)
	if err != nil {
		return st, err
	}
	return mergeStatus(st, ns, r)
}

func mergeStatus(st escpos.Status, ns, replies []byte) (escpos.Status, error) {
	for i, n := range ns {
		var err error
		if st, err = escpos.ParseStatus(st, n, replies[i]); err != nil {
			return st, err
		}
	}
	return st, nil
}

// timeout is ctx bounded by d on the injected clock. (clockwork.WithTimeout leaves its fake
// timer registered after cancel, which confuses tests that count waiters.)
func (p *Printer) timeout(parent context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(parent)
	t := p.cfg.Clock.NewTimer(d)
	go func() {
		select {
		case <-t.Chan():
			cancel(fmt.Errorf("no reply within %v", d))
		case <-ctx.Done():
		}
	}()
	return ctx, func() {
		t.Stop()
		cancel(nil)
	}
}

func (p *Printer) readByte(ctx context.Context) (byte, error) {
	var b [1]byte
	for {
		n, err := p.port.ReadContext(ctx, b[:])
		if err != nil {
			if c := context.Cause(ctx); c != nil {
				err = c
			}
			return 0, fmt.Errorf("printer: reply: %w", err)
		}
		if n == 1 {
			return b[0], nil
		}
	}
}

// next reads one answer: a DLE EOT reply (status), a process ID reply (id set), or something
// to skip (ASB blocks, XON/XOFF, the 37h 25h 00h of a buffer clear: neither set).
func (p *Printer) next(ctx context.Context) (status byte, id []byte, err error) {
	b, err := p.readByte(ctx)
	if err != nil {
		return 0, nil, err
	}
	if escpos.IsStatusByte(b) {
		return b, nil, nil
	}
	if b != escpos.ProcessIDReply[0] {
		return 0, nil, nil
	}
	if b, err = p.readByte(ctx); err != nil || b != escpos.ProcessIDReply[1] {
		return 0, nil, err
	}
	var got [5]byte
	for i := range got {
		if got[i], err = p.readByte(ctx); err != nil {
			return 0, nil, err
		}
	}
	if got[4] != 0 {
		return 0, nil, nil
	}
	return 0, got[:4], nil
}

// collect reads answers until it has n DLE EOT replies, noting a process ID reply equal to id.
func (p *Printer) collect(ctx context.Context, n int, id []byte) (status []byte, gotID bool, err error) {
	for len(status) < n {
		st, got, err := p.next(ctx)
		if err != nil {
			return status, gotID, err
		}
		switch {
		case st != 0:
			status = append(status, st)
		case got != nil && id != nil && string(got) == string(id):
			gotID = true
		}
	}
	return status, gotID, nil
}

// waitID reads answers until the process ID reply id arrives.
func (p *Printer) waitID(ctx context.Context, id []byte) error {
	for {
		_, got, err := p.next(ctx)
		if err != nil {
			return err
		}
		if got != nil && string(got) == string(id) {
			return nil
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

// Stage renders rs and writes them to the spool without queuing them (Spool.Stage): once
// it returns, the spool has kept them durably and its filesystem has its headroom left;
// Commit of the result queues them (no data written then), Flush prints them. A rendering
// error means a receipt is invalid; a storage failure wraps ErrSpool. Nothing is left
// behind on an error.
func (p *Printer) Stage(rs ...Receipt) (*Staged, error) {
	var items []Staging
	for _, r := range rs {
		data, err := Render(r, p.cfg.Layout)
		if err != nil {
			return nil, err
		}
		items = append(items, Staging{ID: r.ID, Data: data})
	}
	return p.spool.Stage(items)
}

// CheckSpool is nil when the spool can keep receipts (Spool.Check).
func (p *Printer) CheckSpool() error { return p.spool.Check() }

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
		if p.mode == ModeUnknown {
			if err := p.probe(ctx); err != nil {
				return printed, p.fault(ErrNoResponse, st, err, false)
			}
		}
		if fe := p.send(ctx, job); fe != nil {
			return printed, fe
		}
		if err := p.spool.Remove(job.Seq); err != nil {
			return printed, err
		}
		printed++
		p.cfg.Logger.Info("printer: receipt printed", "id", job.ID, "bytes", len(job.Data))
	}
	return printed, nil
}

// send writes one receipt followed by a process ID request (in ModeProcessID) and status
// requests, and decides whether it printed: a fault reported at once, or a confirmation that
// never comes while the status shows a fault, or a fault seen by the status polls of
// ModeStatusPolling, interrupts it (buffers cleared, kept in spool).
func (p *Printer) send(ctx context.Context, job Spooled) error {
	p.seq = p.seq%9999 + 1
	id := []byte(fmt.Sprintf("%04d", p.seq))
	var w escpos.Builder
	w.Raw(job.Data...)
	if p.mode == ModeProcessID {
		w.ProcessID([4]byte(id))
	}
	ns := []byte{escpos.StatusPrinter, escpos.StatusOffline, escpos.StatusPaper}
	for _, n := range ns {
		w.StatusRequest(n)
	}
	b, _ := w.Bytes()
	p.port.Discard()
	if _, err := p.port.Write(b); err != nil {
		// Unknown how much printed: the receipt stays and prints whole when the printer is back.
		p.linkFailed()
		return p.fault(ErrNoResponse, escpos.Status{}, err, true)
	}
	// The status requests queue behind the receipt on the line: allow its transmission time.
	xmit := time.Duration(len(b)) * 10 * time.Second / time.Duration(p.cfg.Baud)
	sctx, cancel := p.timeout(ctx, p.cfg.StatusTimeout+xmit)
	r, gotID, err := p.collect(sctx, len(ns), id)
	cancel()
	if err != nil {
		return p.fault(ErrNoResponse, escpos.Status{}, err, true)
	}
	st, err := mergeStatus(escpos.Status{}, ns, r)
	if err != nil {
		return p.fault(ErrNoResponse, st, err, true)
	}
	p.last = st
	if k := kindOf(st); k != nil {
		return p.interrupt(k, st)
	}
	if p.mode != ModeProcessID {
		return p.poll(ctx, xmit)
	}
	if gotID {
		return nil
	}
	pctx, cancel := p.timeout(ctx, p.cfg.PrintTimeout)
	err = p.waitID(pctx, id)
	cancel()
	if err == nil {
		return nil
	}
	st, serr := p.status(ctx)
	if serr != nil {
		return p.fault(ErrNoResponse, st, serr, true)
	}
	if k := kindOf(st); k != nil {
		return p.interrupt(k, st)
	}
	return p.fault(ErrNoResponse, st, fmt.Errorf("printing not confirmed: %w", err), true)
}

// interrupt drops the rest of the receipt from the printer's buffers (DLE DC4 8): it prints
// whole again when the fault clears.
func (p *Printer) interrupt(k error, st escpos.Status) error {
	if _, err := p.port.Write([]byte(escpos.ClearBuffers)); err != nil {
		return p.fault(k, st, err, true)
	}
	return p.fault(k, st, nil, true)
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
