package main

import (
	"io"

	"github.com/jonboulle/clockwork"

	"github.com/packterm/pos/internal/progress"
)

// progressClock times the progress lines written when stderr is not a terminal (a fake
// clock in tests).
var progressClock = clockwork.NewRealClock()

// showProgress reports work done out of total on w (internal/progress): a bar on one line on a
// terminal, a line every 5 s otherwise.
func showProgress(w io.Writer, total int, what string) (func(done int), func()) {
	return progress.New(w, total, what, progress.Options{Unit: "tickets", Clock: progressClock})
}
