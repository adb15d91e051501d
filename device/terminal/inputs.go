package terminal

import (
	"context"
	"time"

	"github.com/packterm/pos/drivers/gpioio"
	"github.com/packterm/pos/drivers/scanner"
)

// ScanSource is a scanner: the serial scanner (*scanner.Serial) and the image decoder
// (Frames) deliver their events the same way.
type ScanSource interface {
	Run(ctx context.Context, out chan<- scanner.Event) error
}

var (
	_ ScanSource = (*scanner.Serial)(nil)
	_ ScanSource = (*Frames)(nil)
)

// Frames is an image source: images sent on In are decoded by the scanner driver's image
// decoder.
type Frames struct {
	Images *scanner.Images
	In     chan scanner.ImageFrame
}

// NewFrames returns an image source on dec. A camera's frames take
// scanner.CameraDecoder(codemap.DecoderOptions()): a time budget per frame, a frame it runs
// out on being a frame without a code.
func NewFrames(dec scanner.ImageDecoder, cfg scanner.Config) *Frames {
	return &Frames{Images: scanner.NewImages(dec, cfg), In: make(chan scanner.ImageFrame)}
}

// Run implements ScanSource.
func (f *Frames) Run(ctx context.Context, out chan<- scanner.Event) error {
	return f.Images.Run(ctx, f.In, out)
}

// RunScanner runs src and hands its scans and plug events to the machine until ctx ends.
func (t *Terminal) RunScanner(ctx context.Context, src ScanSource) error {
	ch := make(chan scanner.Event)
	done := make(chan error, 1)
	go func() { done <- src.Run(ctx, ch) }()
	for {
		select {
		case ev := <-ch:
			var in Event
			switch ev.Kind {
			case scanner.EventScan:
				in = Event{Kind: EvScan, Text: ev.Scan.Text, Symbology: ev.Scan.Symbology, Source: ev.Scan.Source}
			case scanner.EventDisconnected:
				in = Event{Kind: EvScannerGone}
			case scanner.EventConnected:
				in = Event{Kind: EvScannerBack}
			default:
				t.log.Warn("terminal: scanner", "err", ev.Err)
				continue
			}
			if err := t.Send(ctx, in); err != nil {
				return nil
			}
		case err := <-done:
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
	}
}

// RunButtons hands button presses and tamper switch changes to the machine until ctx ends
// (the watchers themselves run in board.Run). A button held LongPress or more while the
// terminal is at rest asks, on release, for the end-of-day report (OK) or the reprint menu
// (CANCEL: a duplicate of any receipt, by its journal number): the two retail commands a
// board has no other key for.
func (t *Terminal) RunButtons(ctx context.Context, ok, cancel *gpioio.Button, tamper *gpioio.Tamper) error {
	var okc, cancelc <-chan gpioio.Event
	var tc <-chan struct{}
	if ok != nil {
		okc = ok.Events()
	}
	if cancel != nil {
		cancelc = cancel.Events()
	}
	if tamper != nil {
		tc = tamper.Changed()
	}
	// A press's time, kept only when the machine was at rest then: a long press asks
	// for a command only if it began and ended at rest (a finger kept on OK through a
	// payout is no request for the report).
	var okDown, cancelDown time.Time
	atRest := func(at time.Time) time.Time {
		if !t.isQuiet() {
			return time.Time{}
		}
		return at
	}
	for {
		var in Event
		select {
		case <-ctx.Done():
			return nil
		case ev := <-okc:
			if !ev.Active {
				if t.longPress(okDown, ev.At) {
					in = Event{Kind: EvReport}
					break
				}
				continue
			}
			okDown = atRest(ev.At)
			in = Event{Kind: EvOK}
		case ev := <-cancelc:
			if !ev.Active {
				if t.longPress(cancelDown, ev.At) {
					in = Event{Kind: EvReprintMenu}
					break
				}
				continue
			}
			cancelDown = atRest(ev.At)
			in = Event{Kind: EvCancel}
		case <-tc:
			in = Event{Kind: EvTamper}
		}
		if err := t.Send(ctx, in); err != nil {
			return nil
		}
	}
}

// longPress reports whether a press from down to up was a long one made at rest.
func (t *Terminal) longPress(down, up time.Time) bool {
	if down.IsZero() || up.Sub(down) < t.cfg.LongPress {
		return false
	}
	return t.isQuiet()
}

func (t *Terminal) isQuiet() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.quiet
}
