package flash

import (
	"io"
	"sync"
)

// link reads frames in a goroutine so that waits can time out on a clock, and serialises
// writes.
type link struct {
	w      io.Writer
	frames chan Frame
	done   chan struct{}
	err    error // the read error, once frames is closed
	fr     *FrameReader
	wmu    sync.Mutex
	buf    []byte
}

// newLink reads frames of at most maxPayload bytes from rw.
func newLink(rw io.ReadWriter, maxPayload int) *link {
	l := &link{w: rw, frames: make(chan Frame, 4), done: make(chan struct{}), fr: newFrameReader(rw, maxPayload)}
	go l.read()
	return l
}

func (l *link) read() {
	defer close(l.frames)
	for {
		f, err := l.fr.Next()
		if err != nil {
			l.err = err
			return
		}
		select {
		case l.frames <- f:
		case <-l.done:
			return
		}
	}
}

// stop makes the reader goroutine exit at its next frame (or read error).
func (l *link) stop() {
	select {
	case <-l.done:
	default:
		close(l.done)
	}
}

func (l *link) send(typ byte, payload []byte) error {
	l.wmu.Lock()
	defer l.wmu.Unlock()
	l.buf = AppendFrame(l.buf[:0], typ, payload)
	_, err := l.w.Write(l.buf)
	return err
}
