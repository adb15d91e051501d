package server

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/jonboulle/clockwork"
)

// DefaultRegistryPoll is how often WatchRegistry looks at terminals.json.
const DefaultRegistryPoll = 5 * time.Second

// WatchOptions configure WatchRegistry.
type WatchOptions struct {
	Every  time.Duration   // between looks (default DefaultRegistryPoll)
	Clock  clockwork.Clock // default the real clock
	Logger *slog.Logger
	// Apply takes each registry that differs from the last one read (and parses and
	// checks); each of them in turn (the service's SetRegistry, the server's).
	Apply []func(*Registry) error
}

// WatchRegistry looks at dir/terminals.json every o.Every until ctx ends and applies
// each new version: a terminal added with posctl fleet add-terminal is answered, one
// removed is refused, without a restart. A file that does not parse or check (a write in
// progress by hand, a mistake) is logged and the registry in force is kept. The file
// read at start is the baseline: only a change is applied. It polls (a rename over the
// file, an edit in place and a copy from another machine are all seen) rather than
// relying on file notifications.
func WatchRegistry(ctx context.Context, dir string, o WatchOptions) {
	if o.Every <= 0 {
		o.Every = DefaultRegistryPoll
	}
	if o.Clock == nil {
		o.Clock = clockwork.NewRealClock()
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	path := filepath.Join(dir, RegistryFile)
	last, _ := os.ReadFile(path)
	var bad []byte // the last content refused, logged once
	for {
		select {
		case <-ctx.Done():
			return
		case <-o.Clock.After(o.Every):
		}
		b, err := os.ReadFile(path)
		if err != nil {
			o.Logger.Warn("fleet registry: keeping the registry in force", "err", err)
			continue
		}
		if bytes.Equal(b, last) || bytes.Equal(b, bad) {
			continue
		}
		r, err := ParseRegistry(b)
		if err != nil {
			bad = b
			o.Logger.Error("fleet registry: new version refused, keeping the one in force", "err", err)
			continue
		}
		ok := true
		for _, apply := range o.Apply {
			if err := apply(r); err != nil {
				ok = false
				o.Logger.Error("fleet registry: applying the new version", "err", err)
			}
		}
		if ok {
			last, bad = b, nil
			o.Logger.Info("fleet registry: new version in force", "terminals", len(r.Terminals))
		}
	}
}
