package scanner

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func lines(fs []Frame) (ok []string, bad []error) {
	for _, f := range fs {
		if f.Err != nil {
			bad = append(bad, f.Err)
			continue
		}
		ok = append(ok, string(f.Line))
	}
	return
}

func TestFramerSuffixes(t *testing.T) {
	for _, tc := range []struct {
		suffix Suffix
		in     string
		want   []string
	}{
		{CR, "AB\rCD\r", []string{"AB", "CD"}},
		{CR, "AB\r\nCD\r\n", []string{"AB", "CD"}}, // scanner sends CRLF: LF tolerated
		{LF, "AB\nCD\n", []string{"AB", "CD"}},
		{LF, "AB\r\nCD\r\n", []string{"AB", "CD"}},
		{CRLF, "AB\r\nCD\r\n", []string{"AB", "CD"}},
		{CRLF, "AB\nCD\r", []string{"AB", "CD"}},
		{CR, "AB", nil}, // incomplete
		{Tab, "AB\tCD\t", []string{"AB", "CD"}},
	} {
		f := NewFramer(tc.suffix, 64)
		// Byte by byte: chunk boundaries must not matter.
		var fs []Frame
		for i := range len(tc.in) {
			fs = append(fs, f.Feed([]byte{tc.in[i]})...)
		}
		got, bad := lines(fs)
		if strings.Join(got, "|") != strings.Join(tc.want, "|") || len(bad) != 0 {
			t.Errorf("%v %q: got %q, errors %v", tc.suffix, tc.in, got, bad)
		}
	}
}

func TestFramerDiscards(t *testing.T) {
	f := NewFramer(CR, 8)
	fs := f.Feed([]byte("123456789012\rOK1\r\x00\x01bin\rAB\xff\rOK2\r\r"))
	got, bad := lines(fs)
	if strings.Join(got, "|") != "OK1|OK2" {
		t.Errorf("kept %q", got)
	}
	if len(bad) != 4 || !errors.Is(bad[0], ErrTooLong) || !errors.Is(bad[1], ErrBinary) ||
		!errors.Is(bad[2], ErrBinary) || !errors.Is(bad[3], ErrEmpty) {
		t.Errorf("errors %v", bad)
	}
	// Reset drops a partial line.
	f.Feed([]byte("PART"))
	f.Reset()
	if got, _ := lines(f.Feed([]byte("NEW\r"))); len(got) != 1 || got[0] != "NEW" {
		t.Errorf("after reset %q", got)
	}
}

func TestParseLineAIM(t *testing.T) {
	for _, tc := range []struct {
		in, text, sym string
		aim           bool
		err           error
	}{
		{"]C0PACK42", "PACK42", "]C0", true, nil},
		{"]I1012345", "012345", "]I1", true, nil},
		{"]Q1https://x", "https://x", "]Q1", true, nil},
		{"PACK42", "PACK42", "", false, nil},
		{"]C0", "", "", true, ErrAIM},
		{"C0PACK", "", "", true, ErrAIM},
		{"]1CXX", "", "", true, ErrAIM},
		{"AB\x1dCD", "AB\x1dCD", "", false, nil}, // GS1 separator
		{"AB\x07", "", "", false, ErrBinary},
	} {
		text, sym, err := ParseLine([]byte(tc.in), tc.aim)
		if !errors.Is(err, tc.err) || text != tc.text || sym != tc.sym {
			t.Errorf("ParseLine(%q, %v) = %q, %q, %v", tc.in, tc.aim, text, sym, err)
		}
	}
}

// FuzzFramer: any byte stream, any chunking: no panic, every good line is printable, bounded
// and free of terminators, and feeding in two chunks gives the same frames as one.
func FuzzFramer(f *testing.F) {
	f.Add([]byte("]C0PACK-0042\r\n"), 3, uint8(2))
	f.Add([]byte("0123456789\r\x00\x01\xff\r"), 5, uint8(0))
	f.Add([]byte(strings.Repeat("A", 100)+"\nB\n"), 50, uint8(1))
	f.Fuzz(func(t *testing.T, b []byte, cut int, s uint8) {
		suffix := Suffix(s % 4)
		whole := NewFramer(suffix, 32).Feed(b)
		if cut < 0 {
			cut = -cut
		}
		cut %= len(b) + 1
		sp := NewFramer(suffix, 32)
		split := append(sp.Feed(b[:cut]), sp.Feed(b[cut:])...)
		if len(whole) != len(split) {
			t.Fatalf("split at %d: %d frames, whole: %d", cut, len(split), len(whole))
		}
		for i, fr := range whole {
			if !bytes.Equal(fr.Line, split[i].Line) || !errors.Is(fr.Err, split[i].Err) {
				t.Fatalf("frame %d differs when split", i)
			}
			if fr.Err != nil {
				continue
			}
			if len(fr.Line) == 0 || len(fr.Line) > 32 || bytes.ContainsAny(fr.Line, "\r\n") || !printable(fr.Line) {
				t.Fatalf("bad line accepted: %q", fr.Line)
			}
			for _, aim := range []bool{false, true} {
				text, _, err := ParseLine(fr.Line, aim)
				if err == nil && text == "" {
					t.Fatalf("empty text from %q", fr.Line)
				}
			}
		}
	})
}
