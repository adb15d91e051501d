package server

import (
	"context"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
)

func item(subject string) queued { return queued{m: &nats.Msg{Subject: subject}} }

// A flooding terminal fills its own queue only, holds one handler at most, and another
// terminal's request is next in turn; each terminal's requests keep their order.
func TestFairQueueFloodWaitsItsTurn(t *testing.T) {
	q := newFairQueue(16)
	accepted := 0
	for range 1000 {
		if q.push("A", item("A")) {
			accepted++
		}
	}
	if accepted != 16 {
		t.Fatalf("flood: %d accepted, want 16 (the rest dropped)", accepted)
	}
	if !q.push("B", item("B")) {
		t.Fatal("B's request dropped for A's flood")
	}
	ctx := context.Background()
	first, doneA, _ := q.pop(ctx)
	second, doneB, _ := q.pop(ctx)
	if first.m.Subject != "A" || second.m.Subject != "B" {
		t.Fatalf("order %s, %s: B waits behind A's flood", first.m.Subject, second.m.Subject)
	}
	// A's first request is still in work: none of A's is handed out meanwhile.
	short, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	if q, _, ok := q.pop(short); ok {
		t.Fatalf("a second request of %s in work at once", q.m.Subject)
	}
	doneB()
	doneA()
	if next, done, ok := q.pop(ctx); !ok || next.m.Subject != "A" {
		t.Fatalf("after A's first: %v %v", ok, next.m)
	} else {
		done()
	}
	if n := q.waiting(); n != 14 {
		t.Fatalf("%d waiting, want 14", n)
	}
}

// Requests of many terminals are served in turn: each terminal's first request before
// any terminal's second.
func TestFairQueueRoundRobin(t *testing.T) {
	q := newFairQueue(4)
	for range 3 {
		for _, id := range []string{"A", "B", "C"} {
			q.push(id, item(id))
		}
	}
	var got string
	for range 9 {
		it, done, _ := q.pop(context.Background())
		got += it.m.Subject
		done()
	}
	if got != "ABCABCABC" {
		t.Fatalf("order %s", got)
	}
	if len(q.queues) != 0 {
		t.Fatalf("%d terminals still held", len(q.queues))
	}
}
