package ledger

import (
	"fmt"
	"os"

	"syscall"
)

// mapFile maps path read-only. An empty file maps to an empty slice (and unmap is a no-op).
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
	if !st.Mode().IsRegular() {
		return nil, nil, fmt.Errorf("%s: not a regular file", path)
	}
	if size == 0 {
		return []byte{}, func() error { return nil }, nil
	}
	if size > 1<<31-1 {
		return nil, nil, fmt.Errorf("%s: %d bytes, too large", path, size)
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, fmt.Errorf("mmap %s: %w", path, err)
	}
	return data, func() error { return syscall.Munmap(data) }, nil
}
