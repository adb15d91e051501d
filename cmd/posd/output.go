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

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}
