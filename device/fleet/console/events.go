package console

import (
	"sync"
)

// Event is a record that arrived, as the open pages are told of it (never its code).
type Event struct {
	Terminal string `json:"terminal"`
	Seq      uint64 `json:"seq"`
	Kind     string `json:"kind"`
	Amount   int64  `json:"amount_cents"`
}

// eventBuffer is how many events a slow page may lag behind before it misses some
// (it reloads what it shows at the next one anyway).
const eventBuffer = 64

// hub hands every event to every open /events stream.
type hub struct {
	mu   sync.Mutex
	subs map[chan Event]struct{}
}

func newHub() *hub { return &hub{subs: map[chan Event]struct{}{}} }

func (h *hub) subscribe() chan Event {
	c := make(chan Event, eventBuffer)
	h.mu.Lock()
	h.subs[c] = struct{}{}
	h.mu.Unlock()
	return c
}

func (h *hub) unsubscribe(c chan Event) {
	h.mu.Lock()
	delete(h.subs, c)
	h.mu.Unlock()
}

// publish hands e to every stream without waiting: a full stream misses it.
func (h *hub) publish(e Event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for c := range h.subs {
		select {
		case c <- e:
		default:
		}
	}
}
