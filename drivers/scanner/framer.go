package scanner

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Suffix is the terminator the scanner appends to each code.
type Suffix int

// Suffixes a scanner can be configured with.
const (
	CR Suffix = iota // also a keyboard scanner's Enter key
	LF
	CRLF
	Tab // a keyboard scanner's Tab key (HT, 09h)
)

func (s Suffix) String() string {
	return [...]string{"CR", "LF", "CRLF", "TAB"}[s]
}

// Bytes is the suffix as sent on the line.
func (s Suffix) Bytes() []byte {
	return [][]byte{{'\r'}, {'\n'}, {'\r', '\n'}, {'\t'}}[s]
}

// ParseSuffix reads "CR", "LF", "CRLF" or "TAB" (any case; "ENTER" is CR).
func ParseSuffix(s string) (Suffix, error) {
	switch strings.ToUpper(s) {
	case "CR", "ENTER":
		return CR, nil
	case "LF":
		return LF, nil
	case "CRLF":
		return CRLF, nil
	case "TAB":
		return Tab, nil
	}
	return 0, fmt.Errorf("scanner: suffix %q (CR, LF, CRLF, TAB or ENTER)", s)
}

// Framing errors, reported in Frame.Err.
var (
	ErrTooLong = errors.New("scanner: line too long")
	ErrBinary  = errors.New("scanner: binary garbage")
	ErrEmpty   = errors.New("scanner: empty line")
	ErrAIM     = errors.New("scanner: malformed AIM identifier")
)

// Frame is one line from the scanner, without its suffix, or a framing error.
type Frame struct {
	Line []byte
	Err  error
}

// Framer splits a scanner's byte stream into lines. The configured suffix ends a line; the
// other half of CRLF is tolerated (a CR before LF, an LF after CR), so a scanner set to CRLF
// still works when CR or LF is configured.
type Framer struct {
	suffix     Suffix
	max        int
	buf        []byte
	discarding bool // inside an over-long line, until the next terminator
	lastCR     bool // previous byte ended a line with CR
}

// NewFramer returns a framer for lines of at most maxLen bytes.
func NewFramer(suffix Suffix, maxLen int) *Framer {
	return &Framer{suffix: suffix, max: maxLen}
}

// Reset drops a partial line (e.g. when the scanner was unplugged mid-line).
func (f *Framer) Reset() {
	f.buf, f.discarding, f.lastCR = f.buf[:0], false, false
}

// Feed consumes b and returns the lines it completed.
func (f *Framer) Feed(b []byte) []Frame {
	var out []Frame
	for _, c := range b {
		lastCR := f.lastCR
		f.lastCR = false
		end := false
		switch {
		case f.suffix == Tab:
			end = c == '\t'
		case c == '\r' && f.suffix != LF:
			end = f.suffix == CR
			if f.suffix == CRLF {
				// CR is part of the suffix: wait for LF, but a lone CR also ends the line.
				end = true
			}
			f.lastCR = true
		case c == '\n' && f.suffix == LF:
			end = true
		case c == '\n':
			if lastCR {
				continue // second half of CRLF
			}
			end = f.suffix == CRLF
		case c == '\r' && f.suffix == LF:
			continue // tolerated CR before LF
		}
		if end {
			if f.discarding {
				f.discarding = false
			} else {
				out = append(out, f.frame())
			}
			f.buf = f.buf[:0]
			continue
		}
		if f.discarding {
			continue
		}
		if len(f.buf) >= f.max {
			out = append(out, Frame{Line: append([]byte(nil), f.buf...), Err: ErrTooLong})
			f.buf, f.discarding = f.buf[:0], true
			continue
		}
		f.buf = append(f.buf, c)
	}
	return out
}

func (f *Framer) frame() Frame {
	line := append([]byte(nil), f.buf...)
	if len(line) == 0 {
		return Frame{Err: ErrEmpty}
	}
	if !printable(line) {
		return Frame{Line: line, Err: ErrBinary}
	}
	return Frame{Line: line}
}

// printable accepts valid UTF-8 without control characters, except GS (1Dh), the GS1 field
// separator scanners send for FNC1.
func printable(b []byte) bool {
	if !utf8.Valid(b) {
		return false
	}
	for _, r := range string(b) {
		if (r < 0x20 && r != 0x1D) || r == 0x7F || (r >= 0x80 && r < 0xA0) {
			return false
		}
	}
	return true
}

// ParseLine checks a framed line and splits off the AIM identifier when aim is set: "]", a
// code character (A-Z, a-z) and a modifier (0-9, A-Z, a-z).
func ParseLine(line []byte, aim bool) (text, symbology string, err error) {
	if len(line) == 0 {
		return "", "", ErrEmpty
	}
	if !printable(line) {
		return "", "", ErrBinary
	}
	if !aim {
		return string(line), "", nil
	}
	if len(line) < 4 || line[0] != ']' || !isLetter(line[1]) || !(isLetter(line[2]) || isDigit(line[2])) {
		return "", "", fmt.Errorf("%w: %q", ErrAIM, line[:min(len(line), 3)])
	}
	return string(line[3:]), string(line[:3]), nil
}

func isLetter(c byte) bool { return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
