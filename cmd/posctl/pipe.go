package main

import (
	"context"
	"errors"
	"io"
	"os/signal"
	"sync"
	"syscall"
)

// A reader that goes away (posctl … | head -1) is a normal end, not a crash: SIGPIPE is
// ignored, so a write to a closed pipe fails with EPIPE instead of killing the process;
// the first such failure on standard output cancels the command's context (a
// listener or an emulator stops as on Ctrl-C) and main exits 0 without a message.

// ignoreSIGPIPE makes writes to a closed pipe return EPIPE (Go otherwise dies of SIGPIPE
// when fd 1 or 2 is a closed pipe).
func ignoreSIGPIPE() { signal.Ignore(syscall.SIGPIPE) }

// pipeWriter passes writes to w and calls gone once when one fails with EPIPE.
type pipeWriter struct {
	w    io.Writer
	once *sync.Once
	gone context.CancelFunc
}

func (p pipeWriter) Write(b []byte) (int, error) {
	n, err := p.w.Write(b)
	if errors.Is(err, syscall.EPIPE) {
		p.once.Do(p.gone)
	}
	return n, err
}

// readerGone reports whether err only says that the reader of our output went away.
func readerGone(err error) bool { return errors.Is(err, syscall.EPIPE) }
