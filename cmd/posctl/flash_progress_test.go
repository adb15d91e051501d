package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
)

// Off a terminal, progress is one line every 5 s with rate and ETA, and one at the end.
func TestByteProgressLines(t *testing.T) {
	var out bytes.Buffer
	clock := clockwork.NewFakeClock()
	p := newByteProgress(&out, "firmware", clock)
	for i := 1; i <= 10; i++ {
		clock.Advance(time.Second)
		p.Update(int64(i)*11520, 20*11520)
	}
	p.Finish()
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("want 2 periodic lines and a final one:\n%s", out.String())
	}
	if want := "firmware: 57600/230400 bytes (25.0%) 11520 B/s, ETA 15s"; lines[0] != want {
		t.Fatalf("line %q, want %q", lines[0], want)
	}
	if !strings.Contains(lines[2], "115200/230400 bytes (50.0%)") {
		t.Fatalf("final line %q", lines[2])
	}
}
