package server

import (
	"context"
	"sync"
)

// fairQueue holds the requests waiting for a handler: one first-in-first-out queue per
// terminal, served in turn, with at most one request of a terminal in work at a time. A
// terminal sending as fast as its connection allows fills only its own queue (bounded:
// what does not fit is dropped and counted against it) and holds at most one handler, so
// another terminal's request waits for at most one request of each terminal ahead of it,
// never for the flood. One request at a time per terminal also keeps a terminal's
// requests in the order it sent them.
type fairQueue struct {
	per    int           // bound of one terminal's queue
	notify chan struct{} // a request became ready (capacity 1)

	mu     sync.Mutex
	queues map[string]*terminalQueue
	ready  []*terminalQueue // terminals with a request waiting and none in work, in turn
}

// terminalQueue is one terminal's waiting requests.
type terminalQueue struct {
	id      string
	items   []queued
	busy    bool // one of its requests is in work
	inReady bool
}

func newFairQueue(per int) *fairQueue {
	return &fairQueue{per: max(1, per), notify: make(chan struct{}, 1), queues: map[string]*terminalQueue{}}
}

// push queues q for terminal; false when the terminal's queue is full (q is dropped).
func (f *fairQueue) push(terminal string, q queued) bool {
	f.mu.Lock()
	tq := f.queues[terminal]
	if tq == nil {
		tq = &terminalQueue{id: terminal}
		f.queues[terminal] = tq
	}
	if len(tq.items) >= f.per {
		f.mu.Unlock()
		return false
	}
	tq.items = append(tq.items, q)
	f.makeReady(tq)
	f.mu.Unlock()
	return true
}

// makeReady puts tq in turn when it has a request waiting and none in work (f.mu held).
func (f *fairQueue) makeReady(tq *terminalQueue) {
	if tq.busy || tq.inReady || len(tq.items) == 0 {
		return
	}
	tq.inReady = true
	f.ready = append(f.ready, tq)
	select {
	case f.notify <- struct{}{}:
	default:
	}
}

// pop waits for the next terminal in turn and takes its oldest request; done must be
// called once the request is handled. ok is false when ctx ended.
func (f *fairQueue) pop(ctx context.Context) (q queued, done func(), ok bool) {
	for {
		f.mu.Lock()
		if len(f.ready) > 0 {
			tq := f.ready[0]
			f.ready[0] = nil
			f.ready = f.ready[1:]
			tq.inReady, tq.busy = false, true
			q = tq.items[0]
			tq.items[0] = queued{}
			tq.items = tq.items[1:]
			if len(f.ready) > 0 { // wake another worker for the next terminal
				select {
				case f.notify <- struct{}{}:
				default:
				}
			}
			f.mu.Unlock()
			return q, func() { f.done(tq) }, true
		}
		f.mu.Unlock()
		select {
		case <-ctx.Done():
			return queued{}, nil, false
		case <-f.notify:
		}
	}
}

// done ends tq's request in work: its next one, if any, takes its turn.
func (f *fairQueue) done(tq *terminalQueue) {
	f.mu.Lock()
	defer f.mu.Unlock()
	tq.busy = false
	if len(tq.items) == 0 {
		delete(f.queues, tq.id) // a terminal with nothing waiting holds no memory
		return
	}
	f.makeReady(tq)
}

// waiting is how many requests wait, all terminals together (metrics, tests).
func (f *fairQueue) waiting() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, tq := range f.queues {
		n += len(tq.items)
	}
	return n
}
