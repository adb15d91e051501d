package main

import (
	"fmt"
	"io"
	"os"
	"sync/atomic"
	"time"

	"github.com/jonboulle/clockwork"
	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/packterm/pos/validate/game"
)

// progressClock times the progress lines written when stderr is not a terminal (a fake
// clock in tests); progressEvery is their period.
var progressClock = clockwork.NewRealClock()

const progressEvery = 5 * time.Second

// progress returns a function reporting work done out of total, plus a function that
// finishes the report. On a terminal it is a progress bar; otherwise (pipes, logs, CI) a
// line "what: done of total (p%), elapsed" every progressEvery and a last one at the end,
// so that a long run is never silent.
func progress(w io.Writer, total int, what string) (func(done int), func()) {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return progressLines(w, total, what, progressClock, progressEvery)
	}
	bar := progressbar.NewOptions(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(what),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString("tickets"),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionFullWidth(),
	)
	return func(done int) { bar.Set(done) }, func() { bar.Finish(); io.WriteString(w, "\n") }
}

// progressLines writes a progress line to w every period of clock until finish is
// called, then a last one. report may be called from any goroutine.
func progressLines(w io.Writer, total int, what string, clock clockwork.Clock, every time.Duration) (report func(done int), finish func()) {
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
