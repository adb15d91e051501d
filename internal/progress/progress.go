// Package progress reports the progress of a long job on a command's standard error: one
// line that updates in place on a terminal, a line every few seconds otherwise (pipes,
// logs, CI), so that a long run is never silent and never floods. posctl (ledger gen,
// ledger audit) and posd --emulate (the first run's demo block) use it.
package progress

import (
	"fmt"
	"io"
	"sync/atomic"
	"time"

	"github.com/jonboulle/clockwork"
	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/packterm/pos/validate/game"
)

// Every is the period of the lines written off a terminal.
const Every = 5 * time.Second

// Options tune New; the zero value is the default.
type Options struct {
	Unit  string          // what is counted, shown on a terminal ("tickets"); default "items"
	Clock clockwork.Clock // times the lines off a terminal; nil: the real clock
	Every time.Duration   // their period; 0: Every
}

// fder is a writer backed by a file descriptor: an *os.File, or a writer that wraps one
// and says so (posd's serialised stderr).
type fder interface{ Fd() uintptr }

// IsTerminal reports whether w writes to a terminal.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(fder)
	return ok && f.Fd() <= uintptr(^uint(0)>>1) && term.IsTerminal(int(f.Fd()))
}

// New returns a function reporting work done out of total, and one that finishes the
// report (call it once, at the end, whatever happened). On a terminal it is a bar on one
// line, redrawn in place (at most every 100 ms) and ended by a newline at finish;
// otherwise it is Lines.
func New(w io.Writer, total int, what string, o Options) (report func(done int), finish func()) {
	if o.Every <= 0 {
		o.Every = Every
	}
	if o.Clock == nil {
		o.Clock = clockwork.NewRealClock()
	}
	if o.Unit == "" {
		o.Unit = "items"
	}
	if !IsTerminal(w) {
		return Lines(w, total, what, o.Clock, o.Every)
	}
	bar := progressbar.NewOptions(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(what),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString(o.Unit),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionFullWidth(), // the terminal's width (80 when w is not an *os.File): one line
	)
	return func(done int) { bar.Set(done) }, func() { bar.Finish(); io.WriteString(w, "\n") }
}

// Lines writes a line "what: done of total (p%), elapsed" to w every period of clock
// until finish is called, then a last one. report may be called from any goroutine.
func Lines(w io.Writer, total int, what string, clock clockwork.Clock, every time.Duration) (report func(done int), finish func()) {
	var done atomic.Int64
	start := clock.Now()
	line := func() {
		d := done.Load()
		pct := int64(100)
		if total > 0 {
			pct = d * 100 / int64(total)
		}
		fmt.Fprintf(w, "%s: %s of %s (%d%%), %v\n", what, game.GroupDigits(d), game.GroupDigits(int64(total)), pct, clock.Since(start).Round(time.Second))
	}
	ticker := clock.NewTicker(every)
	stop, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		defer ticker.Stop()
		for {
			select {
			case <-ticker.Chan():
				line()
			case <-stop:
				return
			}
		}
	}()
	return func(d int) { done.Store(int64(d)) }, func() { close(stop); <-stopped; line() }
}
