package main

import (
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progress returns a function reporting work done out of total on a progress bar when
// w is a terminal, and a no-op otherwise (pipes, logs and CI stay quiet), plus a function
// that finishes the bar.
func progress(w io.Writer, total int, what string) (func(done int), func()) {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return func(int) {}, func() {}
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
