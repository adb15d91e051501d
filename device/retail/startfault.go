package retail

import (
	"errors"
	"io/fs"
	"syscall"
)

// StartFault is why a terminal could not start, as its panel says before posd exits.
type StartFault int

// Start faults.
const (
	// StartFailed: another reason (the log says which).
	StartFailed StartFault = iota
	// StartReadOnly: the data tree cannot be written (a read-only file system, or no
	// permission): no journal can record a sale or a payout.
	StartReadOnly
	// StartDiskFull: no space left for the journal.
	StartDiskFull
)

// StartFaultOf classifies a start error.
func StartFaultOf(err error) StartFault {
	switch {
	case errors.Is(err, syscall.EROFS), errors.Is(err, fs.ErrPermission):
		return StartReadOnly
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT):
		return StartDiskFull
	}
	return StartFailed
}

// StartFaultScreen is shown when posd cannot start, before it exits: the retailer sees
// why the terminal is dark to scans instead of a blank panel.
func StartFaultScreen(f StartFault) Screen {
	switch f {
	case StartReadOnly:
		return say("start.read-only")
	case StartDiskFull:
		return say("start.disk-full")
	}
	return say("start.failed")
}
