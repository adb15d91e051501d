package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
)

// lines is a writer that hands each write to the test.
type lines chan string

func (l lines) Write(b []byte) (int, error) { l <- string(b); return len(b), nil }

func (l lines) next(t *testing.T) string {
	t.Helper()
	select {
	case s := <-l:
		return s
	case <-time.After(10 * time.Second): // a guard: the line comes at once
		t.Fatal("no progress line")
		return ""
	}
}

// TestProgressLines: off a terminal, a line every period with the count so far, and a
// last line at the end.
func TestProgressLines(t *testing.T) {
	clock := clockwork.NewFakeClock()
	out := make(lines, 10)
	report, finish := progressLines(out, 12_000_000, "tickets", clock, 5*time.Second)
	report(3_000_000)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := clock.BlockUntilContext(ctx, 1); err != nil {
		t.Fatal(err)
	}
	clock.Advance(5 * time.Second)
	if s := out.next(t); s != "tickets: 3 000 000 of 12 000 000 (25%), 5s\n" {
		t.Fatalf("first line %q", s)
	}
	report(12_000_000)
	clock.Advance(5 * time.Second)
	if s := out.next(t); !strings.HasPrefix(s, "tickets: 12 000 000 of 12 000 000 (100%), 10s") {
		t.Fatalf("second line %q", s)
	}
	finish()
	if s := out.next(t); !strings.Contains(s, "(100%)") {
		t.Fatalf("last line %q", s)
	}
	select {
	case s := <-out:
		t.Fatalf("line after finish: %q", s)
	default:
	}
}
