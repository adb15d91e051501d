// Package regularfile opens files that a reader must never block on: a
// FIFO, a device, a socket or a directory given where a file is expected is refused
// before anything is read from it. The file is opened non-blocking (so opening a FIFO
// with no writer returns at once), then fstat'ed on the open descriptor (so the check
// is about the file that will be read, not about a name that may change).
package regularfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// ErrNotRegular is returned for anything that is not a regular file.
var ErrNotRegular = errors.New("not a regular file")

// Open opens path read-only if it is a regular file (symbolic links are followed) and
// returns it with its size.
func Open(path string) (*os.File, int64, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, 0, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, 0, fmt.Errorf("%s: %s: %w", path, kind(st.Mode()), ErrNotRegular)
	}
	return f, st.Size(), nil
}

// ReadFile reads the regular file at path whole, refusing one larger than max bytes.
func ReadFile(path string, max int64) ([]byte, error) {
	f, size, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if size > max {
		return nil, fmt.Errorf("%s: %d bytes, at most %d expected", path, size, max)
	}
	// Read what is there now, up to max+1 bytes: the file may grow or shrink meanwhile.
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%s: more than %d bytes", path, max)
	}
	return data, nil
}

func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m.IsDir():
		return "a directory"
	}
	return "mode " + m.String()
}
