package emulated

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// MaxLine is the longest input line Feed takes (64 KiB); a longer one is refused whole,
// with a message, and the input goes on after it.
const MaxLine = 64 << 10

// ErrLineTooLong is the error of an input line over MaxLine.
var ErrLineTooLong = errors.New("line too long")

// inputLine is one line of the input, or why it was refused.
type inputLine struct {
	text string
	err  error
}

// lineReader splits an input into lines of at most max bytes (without the "\n" and a "\r"
// before it, as bufio.ScanLines); an over-long line is read to its end and refused, and
// the next one is read as usual. A last line without "\n" is a line.
type lineReader struct {
	r   *bufio.Reader
	max int
	n   int // lines read
}

func newLineReader(r io.Reader, max int) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 4096), max: max}
}

// next returns the next line; io.EOF at the end of the input, another error when the
// input fails (the line read so far is dropped).
func (l *lineReader) next() (inputLine, error) {
	var buf []byte
	size, seen := 0, false
	for {
		chunk, err := l.r.ReadSlice('\n')
		if len(chunk) > 0 {
			seen = true
		}
		size += len(chunk)
		if size <= l.max+2 { // room for "\r\n"
			buf = append(buf, chunk...)
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err != nil && !errors.Is(err, io.EOF):
			return inputLine{}, err
		case err != nil && !seen:
			return inputLine{}, io.EOF
		}
		l.n++
		text := bytes.TrimSuffix(bytes.TrimSuffix(buf, []byte("\n")), []byte("\r"))
		if size > l.max+2 || len(text) > l.max {
			return inputLine{err: fmt.Errorf("emulated: input line %d: %w (%d bytes, at most %d): refused, input goes on", l.n, ErrLineTooLong, size, l.max)}, nil
		}
		return inputLine{text: string(text)}, nil
	}
}
