package serialport

import (
	"fmt"
	"log/slog"
	"time"

	"github.com/jonboulle/clockwork"
)

// Defaults applied by Config.withDefaults.
const (
	DefaultBaud        = 9600
	DefaultReadTimeout = 100 * time.Millisecond
	DefaultMinBackoff  = 100 * time.Millisecond
	DefaultMaxBackoff  = 5 * time.Second
)

// bauds are the rates tarm/serial accepts on Linux (its termios table); others fail at open.
var bauds = map[int]bool{
	50: true, 75: true, 110: true, 134: true, 150: true, 200: true, 300: true, 600: true,
	1200: true, 1800: true, 2400: true, 4800: true, 9600: true, 19200: true, 38400: true,
	57600: true, 115200: true, 230400: true, 460800: true, 500000: true, 576000: true,
	921600: true, 1000000: true, 1152000: true, 1500000: true, 2000000: true, 2500000: true,
	3000000: true, 3500000: true, 4000000: true,
}

// Config says which device to open and how to keep it open.
type Config struct {
	// Path of the device node, e.g. /dev/ttyUSB0 or a stable /dev/serial/by-id/… link.
	Path string
	// Baud rate, 8N1; 0 means DefaultBaud. Ignored by pseudo-terminals.
	Baud int
	// ReadTimeout bounds each underlying read (VTIME, 0.1 s steps, at most 25.5 s); 0 means
	// DefaultReadTimeout. It is also how quickly Close returns.
	ReadTimeout time.Duration
	// MinBackoff and MaxBackoff bound the delay between reopen attempts (doubling).
	MinBackoff, MaxBackoff time.Duration
	// Clock times the backoff; nil means the real clock.
	Clock clockwork.Clock
	// Logger receives connect/disconnect lines; nil means slog.Default().
	Logger *slog.Logger
}

func (c Config) withDefaults() (Config, error) {
	if c.Path == "" {
		return c, fmt.Errorf("serialport: config: empty device path")
	}
	if c.Baud == 0 {
		c.Baud = DefaultBaud
	}
	if !bauds[c.Baud] {
		return c, fmt.Errorf("serialport: config: baud %d not supported", c.Baud)
	}
	if c.ReadTimeout == 0 {
		c.ReadTimeout = DefaultReadTimeout
	}
	if c.ReadTimeout < 100*time.Millisecond || c.ReadTimeout > 25500*time.Millisecond {
		return c, fmt.Errorf("serialport: config: read timeout %v outside 100ms..25.5s", c.ReadTimeout)
	}
	if c.MinBackoff <= 0 {
		c.MinBackoff = DefaultMinBackoff
	}
	if c.MaxBackoff < c.MinBackoff {
		c.MaxBackoff = max(DefaultMaxBackoff, c.MinBackoff)
	}
	if c.Clock == nil {
		c.Clock = clockwork.NewRealClock()
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	c.Logger = c.Logger.With("port", c.Path)
	return c, nil
}
