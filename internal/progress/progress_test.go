package progress

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
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

// TestLines: off a terminal, a line every period with the count so far, and a
// last line at the end.
func TestLines(t *testing.T) {
	clock := clockwork.NewFakeClock()
	out := make(lines, 10)
	report, finish := Lines(out, 12_000_000, "tickets", clock, 5*time.Second)
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

// readAll collects what the terminal side of a pty shows until it is closed.
func readAll(master io.Reader) <-chan string {
	got := make(chan string, 1)
	go func() {
		b, _ := io.ReadAll(master) // ends with EIO once the other side is closed
		got <- string(b)
	}()
	return got
}

// TestOneLineOnTerminal: on a terminal (a pty) the progress is one line redrawn in place
// (carriage returns), ended by a single newline at finish, not a line per report.
func TestOneLineOnTerminal(t *testing.T) {
	master, tty, err := pty.Open()
	if err != nil {
		t.Skip("no pty:", err)
	}
	defer master.Close()
	if err := pty.Setsize(tty, &pty.Winsize{Rows: 24, Cols: 80}); err != nil {
		t.Fatal(err)
	}
	got := readAll(master)
	if !IsTerminal(tty) {
		t.Fatal("a pty is not taken for a terminal")
	}
	report, finish := New(tty, 12_000_000, "making the demo block", Options{Unit: "tickets"})
	for d := 0; d <= 12_000_000; d += 500_000 {
		report(d)
	}
	finish()
	tty.Close()
	out := <-got
	if n := strings.Count(out, "\n"); n != 1 || !strings.Contains(out, "\r") || !strings.Contains(out, "100%") {
		t.Errorf("%d newlines, want one line redrawn in place (\\r) up to 100%%:\n%q", n, out)
	}
	for _, l := range strings.Split(strings.ReplaceAll(out, "\r\n", "\n"), "\r") {
		if w := len([]rune(strings.TrimRight(l, "\n"))); w > 80 {
			t.Errorf("a redraw of %d columns on an 80-column terminal would wrap: %q", w, l)
		}
	}
}

// TestNotTerminal: a pipe or a buffer gets lines, not a bar.
func TestNotTerminal(t *testing.T) {
	var b strings.Builder
	if IsTerminal(&b) {
		t.Fatal("a buffer taken for a terminal")
	}
	clock := clockwork.NewFakeClock()
	report, finish := New(&b, 10, "work", Options{Clock: clock})
	report(10)
	finish()
	if b.String() != "work: 10 of 10 (100%), 0s\n" {
		t.Errorf("%q", b.String())
	}
}
