package installlock

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
)

// FileName is the lock file created in each locked directory.
const FileName = ".install.lock"

// ErrBusy is returned by TryAcquire when another holder has the lock.
var ErrBusy = errors.New("installlock: another install holds the lock")

// Lock is a held install lock; Release gives it back.
type Lock struct {
	f    *os.File
	once sync.Once
}

// Acquire takes the install lock of dir, waiting for other holders (in this process or
// another) until ctx ends (a free lock is taken even when ctx has ended). dir must
// exist.
func Acquire(ctx context.Context, dir string) (*Lock, error) {
	return acquire(ctx, dir, true)
}

// TryAcquire takes the install lock of dir if nobody holds it, else returns ErrBusy.
func TryAcquire(dir string) (*Lock, error) {
	return acquire(context.Background(), dir, false)
}

func acquire(ctx context.Context, dir string, wait bool) (*Lock, error) {
	f, err := openLockFile(dir)
	if err != nil {
		return nil, err
	}
	if err := lockFile(ctx, f, wait); err != nil {
		return nil, err
	}
	return &Lock{f: f}, nil
}

// openLockFile opens (creating it) the lock file of dir read-only: a reader's descriptor
// is enough for flock, and a lock file created by another user (posctl as root, posd as
// its own user) stays openable. Anything there but a regular file is refused.
func openLockFile(dir string) (*os.File, error) {
	path := filepath.Join(dir, FileName)
	f, err := os.OpenFile(path, os.O_RDONLY|os.O_CREATE|openFlags, 0o644)
	if err != nil {
		return nil, fmt.Errorf("installlock: %w", err)
	}
	st, err := f.Stat()
	if err == nil && !st.Mode().IsRegular() {
		err = fmt.Errorf("%s: not a regular file", path)
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("installlock: %w", err)
	}
	return f, nil
}

// Release gives the lock back; later calls do nothing.
func (l *Lock) Release() error {
	var err error
	l.once.Do(func() {
		err = unlockFile(l.f)
		if cerr := l.f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			err = fmt.Errorf("installlock: release: %w", err)
		}
	})
	return err
}

// Do runs fn holding the install lock of dir.
func Do(ctx context.Context, dir string, fn func() error) error {
	l, err := Acquire(ctx, dir)
	if err != nil {
		return err
	}
	err = fn()
	if rerr := l.Release(); err == nil {
		err = rerr
	}
	return err
}
