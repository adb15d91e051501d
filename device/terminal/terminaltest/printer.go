package terminaltest

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/packterm/pos/device/terminal"
	"github.com/packterm/pos/drivers/printer"
	"github.com/packterm/pos/drivers/printer/escpos"
)

// Printer is a fake receipt printer (terminal.Printer). Receipts are staged in a real
// printer.Spool (the machine's receipts must be durable before their record is committed,
// and printer.Staged is the spool's); Flush "prints" what waits there at once, unless
// Fault is set. Set the fields before the machine runs, or with the Set methods while it
// runs.
type Printer struct {
	// State is what Status returns (the zero value: ready); StatusErr, when set, is
	// returned instead (a printer that does not answer).
	State     escpos.Status
	StatusErr error
	// Fault, when set (printer.ErrPaperEnd, printer.ErrCoverOpen…), keeps the receipts in
	// the spool: Flush returns a *printer.FaultError of that kind.
	Fault error
	// FlushErr, when set, is returned by Flush as it is (after printing): e.g. an error
	// wrapping printer.ErrSpool, a printed receipt whose file stays.
	FlushErr error

	mu       sync.Mutex
	spool    *printer.Spool
	receipts map[string]printer.Receipt // staged or queued, by id
	printed  []printer.Receipt
	flushes  int
}

var _ terminal.Printer = (*Printer)(nil)

// NewPrinter returns a ready fake printer whose spool is in dir; o tunes the spool (its
// filesystem: spooltest.FaultFS; a negative Headroom keeps nothing free).
func NewPrinter(dir string, o printer.SpoolOptions) (*Printer, error) {
	s, err := printer.OpenSpool(dir, o)
	if err != nil {
		return nil, fmt.Errorf("terminaltest: %w", err)
	}
	return &Printer{spool: s, receipts: map[string]printer.Receipt{}}, nil
}

// Stage implements terminal.Printer.
func (p *Printer) Stage(rs ...printer.Receipt) (*printer.Staged, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	in := make([]printer.Staging, len(rs))
	for i, r := range rs {
		in[i] = printer.Staging{ID: r.ID, Data: []byte(Text(r))}
	}
	st, err := p.spool.Stage(in)
	if err != nil {
		return nil, err
	}
	for _, r := range rs {
		p.receipts[r.ID] = r
	}
	return st, nil
}

// CheckSpool implements terminal.Printer.
func (p *Printer) CheckSpool() error { return p.spool.Check() }

// Pending implements terminal.Printer.
func (p *Printer) Pending() ([]printer.Spooled, error) { return p.spool.List() }

// Flush implements terminal.Printer: every receipt queued prints, in order, unless Fault.
func (p *Printer) Flush(ctx context.Context) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.flushes++
	queued, err := p.spool.List()
	if err != nil {
		return 0, err
	}
	if p.Fault != nil {
		return 0, &printer.FaultError{Kind: p.Fault, Status: p.State, Pending: len(queued)}
	}
	n := 0
	for _, q := range queued {
		if err := ctx.Err(); err != nil {
			return n, err
		}
		r, ok := p.receipts[q.ID]
		if !ok { // spooled before this fake was made: what the spool holds
			r = printer.Receipt{ID: q.ID, Items: []printer.Item{printer.Text{Text: string(q.Data)}}}
		}
		p.printed = append(p.printed, r)
		n++
		if err := p.spool.Remove(q.Seq); err != nil {
			return n, err
		}
	}
	return n, p.FlushErr
}

// Status implements terminal.Printer.
func (p *Printer) Status(ctx context.Context) (escpos.Status, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.StatusErr != nil {
		return escpos.Status{}, p.StatusErr
	}
	return p.State, nil
}

// SetFault sets Fault while the machine runs (nil: the fault clears).
func (p *Printer) SetFault(kind error) { p.mu.Lock(); p.Fault = kind; p.mu.Unlock() }

// SetState sets State and StatusErr while the machine runs.
func (p *Printer) SetState(st escpos.Status, err error) {
	p.mu.Lock()
	p.State, p.StatusErr = st, err
	p.mu.Unlock()
}

// Printed is every receipt printed, oldest first.
func (p *Printer) Printed() []printer.Receipt {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.printed)
}

// PrintedIDs are the ids of the receipts printed, oldest first.
func (p *Printer) PrintedIDs() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	ids := make([]string, len(p.printed))
	for i, r := range p.printed {
		ids[i] = r.ID
	}
	return ids
}

// Flushes counts the calls to Flush.
func (p *Printer) Flushes() int { p.mu.Lock(); defer p.mu.Unlock(); return p.flushes }

// Text is a receipt as plain text, one item a line: what a test reads of it.
func Text(r printer.Receipt) string {
	var b strings.Builder
	for _, it := range r.Items {
		switch it := it.(type) {
		case printer.Text:
			b.WriteString(it.Text)
		case printer.Pair:
			b.WriteString(it.Left + ": " + it.Right)
		case printer.Rule:
			b.WriteString("----")
		case printer.Barcode:
			b.WriteString("[barcode " + it.Data + "]")
		case printer.QR:
			b.WriteString("[qr]")
		case printer.Feed:
			continue
		default:
			fmt.Fprintf(&b, "%v", it)
		}
		b.WriteByte('\n')
	}
	return b.String()
}
