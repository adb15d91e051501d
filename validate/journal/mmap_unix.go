//go:build unix

package journal

import (
	"fmt"
	"os"
	"syscall"
)

// mapFile maps path read-only (an empty file maps to nothing).
func mapFile(path string) ([]byte, func() error, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	size := st.Size()
	if size == 0 {
		return nil, func() error { return nil }, nil
	}
	if size > 1<<40 || int64(int(size)) != size {
		return nil, nil, fmt.Errorf("%s: %d bytes, too large", path, size)
	}
	b, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED|boltMmapFlags)
	if err != nil {
		return nil, nil, err
	}
	return b, func() error { return syscall.Munmap(b) }, nil
}
