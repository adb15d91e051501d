package emulated

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/packterm/pos/validate/block"
)

// TestFeedGoesOnPastBadLines: a line over 64 KiB is refused with a message and the input
// goes on (before, bufio.Scanner's "token too long" ended the input and the rest was
// lost); a line of binary garbage, or one longer than a scanner line, is refused at once
// (before, the scanner driver dropped it and the input waited 15 s for a scan that never
// came); a command given an argument it does not take is refused and does nothing
// (before, "!ok extra" pressed OK).
func TestFeedGoesOnPastBadLines(t *testing.T) {
	e := startE2E(t, "20x4")
	five := e.tb.find(t, func(tk block.Ticket) bool { return tk.Lot == 5_00 && tk.ID.Pack != 6 })
	var in bytes.Buffer
	in.WriteString(strings.Repeat("A", 70<<10) + "\n")
	in.WriteString("\x00\x01\xfe\xff garbage \x1b[2J\n")
	in.WriteString(strings.Repeat("7", 600) + "\n")
	in.WriteString(e.tb.code(five) + "\n")
	in.WriteString("!ok extra\n") // refused: the winner stays offered
	var fails []error
	var echoed []string
	err := e.rig.Feed(context.Background(), iotest.HalfReader(&in), func(l string) { echoed = append(echoed, l) }, func(err error) { fails = append(fails, err) })
	if err != nil {
		t.Fatalf("feed ended: %v", err)
	}
	if len(fails) != 4 || !errors.Is(fails[0], ErrLineTooLong) || !errors.Is(fails[1], ErrNotScannable) || !errors.Is(fails[2], ErrNotScannable) ||
		!strings.Contains(fails[3].Error(), "takes no argument") {
		t.Fatalf("errors %q", fails)
	}
	for _, l := range echoed {
		if len(l) > MaxLine {
			t.Errorf("a refused line of %d bytes was echoed", len(l))
		}
	}
	e.expect("GAGNANT", "OK : PAYER") // the code after the bad lines was taken; "!ok extra" paid nothing
	e.do("!cancel")
}

// TestLineReader: lines end at "\n" (a "\r" before it dropped), the last one may lack it,
// and a line over the limit is refused whole while the next is read.
func TestLineReader(t *testing.T) {
	lr := newLineReader(iotest.OneByteReader(strings.NewReader("ab\r\n"+strings.Repeat("x", 11)+"\nc\n\nlast")), 10)
	var got []string
	for {
		l, err := lr.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if l.err != nil {
			if !errors.Is(l.err, ErrLineTooLong) {
				t.Fatal(l.err)
			}
			got = append(got, "<long>")
			continue
		}
		got = append(got, l.text)
	}
	if want := []string{"ab", "<long>", "c", "", "last"}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("lines %q, want %q", got, want)
	}
	// Exactly the limit is a line.
	if l, err := newLineReader(strings.NewReader(strings.Repeat("y", 10)+"\r\n"), 10).next(); err != nil || l.err != nil || len(l.text) != 10 {
		t.Errorf("a line of the limit: %v %v %d", err, l.err, len(l.text))
	}
}

// FuzzLineReader: any input is split into lines without a panic, none longer than the
// limit, and the reader always reaches the end.
func FuzzLineReader(f *testing.F) {
	for _, s := range []string{"", "a\nb", "\r\n\r\n", strings.Repeat("z", 40) + "\nq", "\x00\xff\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		lr := newLineReader(bytes.NewReader(b), 16)
		for i := 0; ; i++ {
			if i > len(b)+1 {
				t.Fatal("more lines than bytes")
			}
			l, err := lr.next()
			if errors.Is(err, io.EOF) {
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(l.text) > 16 {
				t.Fatalf("line of %d bytes", len(l.text))
			}
		}
	})
}
