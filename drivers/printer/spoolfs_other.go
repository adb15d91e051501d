//go:build !unix

package printer

import "math"

// Avail implements FS: unknown here, the writes themselves say when the disk is full.
func (OSFS) Avail(string) (uint64, error) { return math.MaxUint64, nil }
