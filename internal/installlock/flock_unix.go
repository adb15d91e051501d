//go:build unix

package installlock

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// openFlags: never follow a link planted at the lock file name, never block opening a FIFO.
const openFlags = unix.O_NOFOLLOW | unix.O_NONBLOCK

// lockFile takes an exclusive flock on f: at once when it is free, else (wait) by trying
// again, without blocking, every few milliseconds (doubling up to maxPoll) until it is
// granted or ctx ends. No flock(2) is left blocked behind a caller that gave up: such a
// waiter would take the lock the moment its holder released it, and hold it until it
// noticed, refusing a TryAcquire that should have had it.
func lockFile(ctx context.Context, f *os.File, wait bool) error {
	poll := time.Millisecond
	for {
		err := flock(f, unix.LOCK_EX|unix.LOCK_NB)
		if err == nil {
			return nil
		}
		if !errors.Is(err, unix.EWOULDBLOCK) {
			f.Close()
			return fmt.Errorf("installlock: flock %s: %w", f.Name(), err)
		}
		if !wait {
			f.Close()
			return ErrBusy
		}
		t := time.NewTimer(poll)
		select {
		case <-ctx.Done():
			t.Stop()
			f.Close()
			return fmt.Errorf("installlock: waiting for %s: %w", f.Name(), ctx.Err())
		case <-t.C:
		}
		poll = min(2*poll, maxPoll)
	}
}

// maxPoll is the longest pause between two tries of a held lock (an install takes
// milliseconds to seconds: a waiter is never more than this late).
const maxPoll = 50 * time.Millisecond

func unlockFile(f *os.File) error { return flock(f, unix.LOCK_UN) }

// flock retries on EINTR.
func flock(f *os.File, how int) error {
	for {
		err := unix.Flock(int(f.Fd()), how)
		if !errors.Is(err, unix.EINTR) {
			return err
		}
	}
}
