package terminaltest

import (
	"context"

	"github.com/packterm/pos/device/terminal"
	"github.com/packterm/pos/drivers/scanner"
)

// Scanner is a fake scanner (terminal.ScanSource): what a test sends on Events is
// delivered as the driver delivers its events. Connected, when set, sends
// scanner.EventConnected first, as the serial scanner does once its port is open.
type Scanner struct {
	Events    chan scanner.Event
	Connected bool
}

var _ terminal.ScanSource = (*Scanner)(nil)

// NewScanner returns a connected fake scanner.
func NewScanner() *Scanner { return &Scanner{Events: make(chan scanner.Event), Connected: true} }

// Run implements terminal.ScanSource; it returns nil when ctx ends.
func (s *Scanner) Run(ctx context.Context, out chan<- scanner.Event) error {
	if s.Connected {
		select {
		case out <- scanner.Event{Kind: scanner.EventConnected}:
		case <-ctx.Done():
			return nil
		}
	}
	for {
		select {
		case ev := <-s.Events:
			select {
			case out <- ev:
			case <-ctx.Done():
				return nil
			}
		case <-ctx.Done():
			return nil
		}
	}
}

// Scan sends a code read, without a symbology.
func (s *Scanner) Scan(ctx context.Context, text string) error {
	select {
	case s.Events <- scanner.Event{Kind: scanner.EventScan, Scan: scanner.Scan{Text: text, Source: "fake"}}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
