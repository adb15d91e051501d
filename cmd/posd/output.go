package main

import (
	"io"
	"sync"
)

// lockedWriter serialises writes to one output: the terminal's screens, the maintenance
// link's and the web page's messages and the logs come from several goroutines, and each
// message must reach the output whole.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

// Fd is the descriptor of the output when it is a file (progress draws on a terminal in
// place), else an invalid one.
func (l *lockedWriter) Fd() uintptr {
	if f, ok := l.w.(interface{ Fd() uintptr }); ok {
		return f.Fd()
	}
	return ^uintptr(0)
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}
