package scanner

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/packterm/pos/drivers/serialport"
)

// Config of a scanner.
type Config struct {
	Suffix Suffix
	// AIM: every line starts with an AIM symbology identifier (scanner setting "AIM ID on").
	AIM bool
	// MaxLen bounds a line (0: 512 bytes); longer lines are discarded.
	MaxLen int
	// DedupWindow: the same code seen again within it is reported once (0: 1 s; < 0: off).
	DedupWindow time.Duration
	Clock       clockwork.Clock
	Logger      *slog.Logger
}

func (c Config) withDefaults() Config {
	if c.MaxLen <= 0 {
		c.MaxLen = 512
	}
	if c.DedupWindow == 0 {
		c.DedupWindow = time.Second
	}
	if c.Clock == nil {
		c.Clock = clockwork.NewRealClock()
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	return c
}

// Scan is one code read.
type Scan struct {
	Text      string
	Symbology string // AIM identifier such as "]C0", or "" when the scanner sends none
	Source    string // "serial:/dev/…", "keyboard:/dev/input/by-id/…" or "image:name"
	At        time.Time
}

// EventKind tells what an Event reports.
type EventKind int

// Events a source delivers.
const (
	EventScan         EventKind = iota
	EventConnected              // the scanner is (back) on line
	EventDisconnected           // the scanner vanished; Err says why
	EventError                  // an image could not be read or decoded; Err says why
)

func (k EventKind) String() string {
	return [...]string{"scan", "connected", "disconnected", "error"}[k]
}

// Event is what sources send on their channel.
type Event struct {
	Kind EventKind
	Scan Scan
	Err  error
}

// Deduper drops a code seen again within a window of its last sighting.
type Deduper struct {
	window time.Duration
	clock  clockwork.Clock
	last   map[string]time.Time
}

// NewDeduper returns a deduper; a window <= 0 lets everything through.
func NewDeduper(window time.Duration, clock clockwork.Clock) *Deduper {
	return &Deduper{window: window, clock: clock, last: map[string]time.Time{}}
}

// Fresh reports whether text should be reported now, and records the sighting.
func (d *Deduper) Fresh(text string) bool {
	if d.window <= 0 {
		return true
	}
	now := d.clock.Now()
	for k, t := range d.last { // keep the map small
		if now.Sub(t) >= d.window {
			delete(d.last, k)
		}
	}
	_, seen := d.last[text]
	d.last[text] = now
	return !seen
}

// Port is the serial link to a scanner; *serialport.Port implements it.
type Port interface {
	Next(ctx context.Context) (serialport.Packet, error)
	Path() string
}

var _ Port = (*serialport.Port)(nil)

// Serial reads scans from a serial scanner.
type Serial struct {
	cfg    Config
	port   Port
	framer *Framer
	dedup  *Deduper
}

// NewSerial returns a scanner reading port.
func NewSerial(port Port, cfg Config) *Serial {
	cfg = cfg.withDefaults()
	return &Serial{cfg: cfg, port: port, framer: NewFramer(cfg.Suffix, cfg.MaxLen), dedup: NewDeduper(cfg.DedupWindow, cfg.Clock)}
}

// Run delivers events on out until ctx ends; it returns ctx's error (or the port's, if closed).
func (s *Serial) Run(ctx context.Context, out chan<- Event) error {
	log := s.cfg.Logger.With("port", s.port.Path())
	source := "serial:" + s.port.Path()
	if n, ok := s.port.(interface{ Source() string }); ok { // a Keyboard
		source = n.Source()
	}
	for {
		pk, err := s.port.Next(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fmt.Errorf("scanner: read %s: %w", s.port.Path(), err)
		}
		var evs []Event
		if pk.Data == nil {
			s.framer.Reset() // a line cut by the unplug is garbage
			if pk.State == serialport.Connected {
				evs = append(evs, Event{Kind: EventConnected})
			} else {
				evs = append(evs, Event{Kind: EventDisconnected, Err: pk.Err})
			}
		}
		for _, f := range s.framer.Feed(pk.Data) {
			if f.Err != nil {
				if f.Err != ErrEmpty {
					log.Warn("scanner: line discarded", "err", f.Err, "bytes", len(f.Line))
				}
				continue
			}
			text, sym, err := ParseLine(f.Line, s.cfg.AIM)
			if err != nil {
				log.Warn("scanner: line discarded", "err", err, "bytes", len(f.Line))
				continue
			}
			if !s.dedup.Fresh(sym + text) {
				log.Debug("scanner: repeated code ignored", "symbology", sym, "len", len(text))
				continue
			}
			evs = append(evs, Event{Kind: EventScan, Scan: Scan{Text: text, Symbology: sym, Source: source, At: s.cfg.Clock.Now()}})
		}
		for _, ev := range evs {
			select {
			case out <- ev:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	}
}
