package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/jonboulle/clockwork"
	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// byteProgress reports a transfer's progress: a bar with rate and ETA on a terminal, else
// one line every `every` (and one at the end) with done, rate and ETA.
type byteProgress struct {
	w     io.Writer
	what  string
	clock clockwork.Clock
	every time.Duration
	bar   *progressbar.ProgressBar
	start time.Time
	last  time.Time
	total int64
	done  int64
}

func newByteProgress(w io.Writer, what string, clock clockwork.Clock) *byteProgress {
	p := &byteProgress{w: w, what: what, clock: clock, every: 5 * time.Second, start: clock.Now()}
	p.last = p.start
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		p.bar = progressbar.NewOptions64(-1, progressbar.OptionSetWriter(w), progressbar.OptionSetDescription(what),
			progressbar.OptionShowBytes(true), progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(200*time.Millisecond), progressbar.OptionFullWidth())
	}
	return p
}

// Update is a flash.Client Progress function.
func (p *byteProgress) Update(done, total int64) {
	p.done, p.total = done, total
	if p.bar != nil {
		p.bar.ChangeMax64(total)
		p.bar.Set64(done)
		return
	}
	if now := p.clock.Now(); now.Sub(p.last) >= p.every {
		p.last = now
		fmt.Fprintln(p.w, p.line(now))
	}
}

func (p *byteProgress) line(now time.Time) string {
	el := now.Sub(p.start).Seconds()
	rate := 0.0
	if el > 0 {
		rate = float64(p.done) / el
	}
	pct := 0.0
	if p.total > 0 {
		pct = 100 * float64(p.done) / float64(p.total)
	}
	eta := "?"
	if rate > 0 {
		eta = (time.Duration(float64(p.total-p.done)/rate) * time.Second).Round(time.Second).String()
	}
	return fmt.Sprintf("%s: %d/%d bytes (%.1f%%) %.0f B/s, ETA %s", p.what, p.done, p.total, pct, rate, eta)
}

// Finish ends the bar or prints the last line.
func (p *byteProgress) Finish() {
	if p.bar != nil {
		p.bar.Finish()
		io.WriteString(p.w, "\n")
		return
	}
	if p.total > 0 {
		fmt.Fprintln(p.w, p.line(p.clock.Now()))
	}
}
