//go:build linux

package journal

import "syscall"

// boltMmapFlags pre-faults the map at open (bbolt's MmapFlags): lookups then never wait
// for a page fault; the file is small next to the board's memory.
const boltMmapFlags = syscall.MAP_POPULATE
