//go:build unix

package installlock

import (
	"context"
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// openFlags: never follow a link planted at the lock file name, never block opening a FIFO.
const openFlags = unix.O_NOFOLLOW | unix.O_NONBLOCK

// lockFile takes an exclusive flock on f: at once when it is free, else (wait) in a
// goroutine blocked in flock(2) until it is granted or ctx ends. A goroutine abandoned
// when ctx ends closes f as soon as flock returns, which releases whatever it got.
func lockFile(ctx context.Context, f *os.File, wait bool) error {
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
	done := make(chan error, 1)
	go func() { done <- flock(f, unix.LOCK_EX) }()
	select {
	case err := <-done:
		if err != nil {
			f.Close()
			return fmt.Errorf("installlock: flock %s: %w", f.Name(), err)
		}
		return nil
	case <-ctx.Done():
		go func() {
			<-done
			f.Close()
		}()
		return fmt.Errorf("installlock: waiting for %s: %w", f.Name(), ctx.Err())
	}
}

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
