package scanner

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// evIOCGrab is EVIOCGRAB, _IOW('E', 0x90, int) (linux/input.h): with argument 1 the caller
// becomes the only reader of the device, so a scanned code never reaches the console or
// another program as typed text; closing the file releases it.
const evIOCGrab = 0x40044590

// grab takes the exclusive grab of an evdev node (no cgo: x/sys/unix). The fd is reached
// through SyscallConn so that the file stays in non-blocking mode with its read deadlines.
func grab(f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return fmt.Errorf("scanner: EVIOCGRAB %s: %w", f.Name(), err)
	}
	var ierr error
	if err := rc.Control(func(fd uintptr) { ierr = unix.IoctlSetInt(int(fd), evIOCGrab, 1) }); err != nil {
		return fmt.Errorf("scanner: EVIOCGRAB %s: %w", f.Name(), err)
	}
	if ierr != nil {
		return fmt.Errorf("scanner: EVIOCGRAB %s (not an input device, or grabbed by another program): %w", f.Name(), ierr)
	}
	return nil
}
