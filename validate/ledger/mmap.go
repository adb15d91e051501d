package ledger

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/packterm/pos/internal/regularfile"
)

// mapFile maps the regular file at path read-only (a FIFO, device or directory is refused
// before anything is read: ErrNotRegular). An empty file maps to an empty slice (and unmap
// is a no-op). Every access to the mapping must run under catchFault: a file truncated
// under the mapping faults (SIGBUS) instead of reading.
func mapFile(path string) ([]byte, func() error, error) {
	f, size, err := regularfile.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	if size == 0 {
		return []byte{}, func() error { return nil }, nil
	}
	if size > maxFileSize {
		return nil, nil, fmt.Errorf("%s: %d bytes, too large for a ledger: %w", path, size, ErrFormat)
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, fmt.Errorf("mmap %s: %w", path, err)
	}
	return data, func() error { return syscall.Munmap(data) }, nil
}

// withFaults makes a memory fault of the calling goroutine a panic instead of a crash
// (runtime/debug.SetPanicOnFault) for the rest of the function that defers
// catchFault(withFaults(), &err, what); catchFault turns that panic into ErrFault.
func withFaults() bool { return debug.SetPanicOnFault(true) }

// catchFault restores the fault setting and turns a fault on a mapped ledger into an
// error wrapping ErrFault; any other panic goes on. It must be deferred directly.
func catchFault(old bool, errp *error, what string) {
	debug.SetPanicOnFault(old)
	if r := recover(); r != nil {
		if !isFault(r) {
			panic(r)
		}
		*errp = fmt.Errorf("ledger: %s: %w", what, ErrFault)
	}
}

// isFault tells a memory fault from other panics: the runtime's fault error carries the
// faulting address; where the kernel or an emulator (qemu-user) does not report one, the
// runtime reports the fault as a nil dereference, which the code under catchFault has no
// other way to cause.
func isFault(r any) bool {
	if _, ok := r.(interface{ Addr() uintptr }); ok {
		return true
	}
	re, ok := r.(runtime.Error)
	return ok && strings.Contains(re.Error(), "invalid memory address")
}
