package journal

import (
	"encoding/binary"
	"runtime/debug"
)

// guard runs fn and turns a panic of the storage engine (bbolt panics on some damaged
// files) or a memory fault in its mapped file (debug.SetPanicOnFault) into an error
// wrapping ErrCorrupt, so that a damaged file never takes the terminal down.
func guard(what string, fn func() error) (err error) {
	old := debug.SetPanicOnFault(true)
	defer debug.SetPanicOnFault(old)
	defer func() {
		if p := recover(); p != nil {
			err = corrupt(0, "%s: storage engine failed on a damaged file: %v", what, p)
		}
	}()
	return fn()
}

func be64(v uint64) []byte { return binary.BigEndian.AppendUint64(nil, v) }

// u64 reads an 8-byte big-endian value (0 when b is not 8 bytes).
func u64(b []byte) uint64 {
	if len(b) != 8 {
		return 0
	}
	return binary.BigEndian.Uint64(b)
}
