package config

import (
	"errors"
	"fmt"
	"io"

	"github.com/packterm/pos/internal/regularfile"
)

// ErrNotRegular is returned by Load for a path that is not a regular file (a FIFO, a
// device, a socket or a directory: refused before anything is read).
var ErrNotRegular = regularfile.ErrNotRegular

// ErrTooLarge is returned by Load for a file over MaxFileSize.
var ErrTooLarge = errors.New("file too large")

// ErrWritable is returned by Load for a file that any user may change.
var ErrWritable = errors.New("file writable by every user")

// Load reads the configuration file at path and parses it. It opens without blocking (a
// FIFO or a device would otherwise hang it), refuses anything but a regular file, a file
// every user may write, or one over MaxFileSize, and parses the bytes it read, never
// the path again. Problems are *Errors naming path.
func Load(path string) (*Config, error) {
	data, err := readFile(path)
	if err != nil {
		return nil, err
	}
	c, err := Parse(data)
	if err != nil {
		var errs *Errors
		if errors.As(err, &errs) {
			for i := range *errs {
				(*errs)[i].File = path
			}
		}
		return nil, err
	}
	return c, nil
}

func readFile(path string) ([]byte, error) {
	f, size, err := regularfile.Open(path)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	if st.Mode().Perm()&0o002 != 0 {
		return nil, fmt.Errorf("config: %s: %w (mode %04o): chmod o-w it", path, ErrWritable, st.Mode().Perm())
	}
	if size > MaxFileSize {
		return nil, fmt.Errorf("config: %s: %w (%d bytes, at most %d)", path, ErrTooLarge, size, MaxFileSize)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("config: read %s: %w", path, err)
	}
	if len(data) > MaxFileSize {
		return nil, fmt.Errorf("config: %s: %w (grew past %d bytes while read)", path, ErrTooLarge, MaxFileSize)
	}
	return data, nil
}
