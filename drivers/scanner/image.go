package scanner

import (
	"context"
	"fmt"
	"image"
	_ "image/gif"  // frame formats
	_ "image/jpeg" // frame formats
	_ "image/png"  // frame formats
	"sync"
	"time"

	"github.com/packterm/pos/drivers/barcode"
)

// ImageDecoder finds a code in an image and returns its text and AIM symbology identifier.
// The codes package's barcode decoder (gozxing) is adapted to it by the terminal.
type ImageDecoder interface {
	Decode(img image.Image) (text, symbology string, err error)
}

// DecoderFunc adapts a function to ImageDecoder.
type DecoderFunc func(img image.Image) (text, symbology string, err error)

// Decode calls f.
func (f DecoderFunc) Decode(img image.Image) (string, string, error) { return f(img) }

var _ ImageDecoder = DecoderFunc(nil)

// BarcodeDecoder is package barcode's locate-then-decode reader with opt (which symbologies,
// which ITF lengths): the terminal passes the options of its code mapping; the driver knows
// no code kinds.
func BarcodeDecoder(opt barcode.Options) ImageDecoder {
	return serialised(barcode.NewDecoder(opt).Decode)
}

// serialised is decode as an ImageDecoder, one frame at a time (a barcode decoder is not
// safe for concurrent use).
func serialised(decode func(image.Image) (barcode.Result, error)) ImageDecoder {
	var mu sync.Mutex
	return DecoderFunc(func(img image.Image) (string, string, error) {
		mu.Lock()
		defer mu.Unlock()
		r, err := decode(img)
		return r.Text, r.Symbology, err
	})
}

// DefaultFrameBudget is the most CameraDecoder spends on a frame: the frame interval of a
// camera at 25 frames a second (barcode.DefaultCadence's Full budget).
const DefaultFrameBudget = 40 * time.Millisecond

// CameraDecoder is BarcodeDecoder for a camera's frames, decoded in turn under
// barcode.DefaultCadence: one frame in four is searched for up to opt.Budget
// (DefaultFrameBudget when zero), the others for a short budget that the first passes fit
// in, so that a frame of clutter, or a code the decoder reads only in its last passes, does
// not hold up the frames after it nor keep a core busy (a camera shows the same scene again
// a frame later). A frame given up is barcode.ErrBudget, an ErrNotFound: Images takes it as
// "no code in this frame", silent for a camera frame. Photos (files, uploads, PhotoDir)
// keep BarcodeDecoder without a budget: each is one deliberate scan, up to 48 megapixels.
func CameraDecoder(opt barcode.Options) ImageDecoder {
	c := barcode.DefaultCadence()
	if opt.Budget > 0 {
		c.Full, c.Quick = opt.Budget, min(c.Quick, opt.Budget)
	}
	return serialised(barcode.NewStream(opt, c).Decode)
}

// ImageFrame is one image to decode; Name identifies it in events and logs (a file path, an upload).
type ImageFrame struct {
	Image image.Image
	Name  string
	// Report: a frame that yields no code is an EventError (files, uploads), not silence
	// (camera frames, most of which show no code).
	Report bool
}

// Images decodes frames into scan events.
type Images struct {
	cfg   Config
	dec   ImageDecoder
	dedup *Deduper
}

// NewImages returns an image source using dec.
func NewImages(dec ImageDecoder, cfg Config) *Images {
	cfg = cfg.withDefaults()
	return &Images{cfg: cfg, dec: dec, dedup: NewDeduper(cfg.DedupWindow, cfg.Clock)}
}

// Decode turns one frame into an event; ok is false for a silent miss or a repeat.
func (s *Images) Decode(fr ImageFrame) (ev Event, ok bool) {
	text, sym, err := s.dec.Decode(fr.Image)
	if err == nil && text == "" {
		err = fmt.Errorf("empty code")
	}
	if err != nil {
		if !fr.Report {
			return Event{}, false
		}
		return Event{Kind: EventError, Err: fmt.Errorf("scanner: image %s: %w", fr.Name, err), Scan: Scan{Source: "image:" + fr.Name}}, true
	}
	if !printable([]byte(text)) {
		s.cfg.Logger.Warn("scanner: decoded text discarded", "err", ErrBinary, "image", fr.Name)
		return Event{}, false
	}
	if !s.dedup.Fresh(sym + text) {
		return Event{}, false
	}
	return Event{Kind: EventScan, Scan: Scan{Text: text, Symbology: sym, Source: "image:" + fr.Name, At: s.cfg.Clock.Now()}}, true
}

// Run decodes frames until in closes (returns nil) or ctx ends (returns ctx's error).
func (s *Images) Run(ctx context.Context, in <-chan ImageFrame, out chan<- Event) error {
	for {
		var fr ImageFrame
		var more bool
		select {
		case fr, more = <-in:
			if !more {
				return nil
			}
		case <-ctx.Done():
			return ctx.Err()
		}
		ev, ok := s.Decode(fr)
		if !ok {
			continue
		}
		select {
		case out <- ev:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}
