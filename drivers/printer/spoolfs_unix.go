//go:build unix

package printer

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// Avail implements FS.
func (OSFS) Avail(dir string) (uint64, error) {
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return 0, fmt.Errorf("statfs %s: %w", dir, err)
	}
	return st.Bavail * uint64(st.Bsize), nil
}
