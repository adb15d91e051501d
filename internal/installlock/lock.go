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
	sem  chan struct{}
	once sync.Once
}

// semaphores holds one semaphore per directory (by absolute path), for the life of the
// process: a terminal installs into a handful of directories.
var semaphores struct {
	sync.Mutex
	m map[string]chan struct{}
}

func semaphore(dir string) (chan struct{}, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("installlock: %w", err)
	}
	semaphores.Lock()
	defer semaphores.Unlock()
	if semaphores.m == nil {
		semaphores.m = map[string]chan struct{}{}
	}
	s, ok := semaphores.m[abs]
	if !ok {
		s = make(chan struct{}, 1)
		semaphores.m[abs] = s
	}
	return s, nil
}

// Acquire takes the install lock of dir, waiting for other holders (in this process or
// another) until ctx ends. dir must exist.
func Acquire(ctx context.Context, dir string) (*Lock, error) {
	return acquire(ctx, dir, true)
}

// TryAcquire takes the install lock of dir if nobody holds it, else returns ErrBusy.
func TryAcquire(dir string) (*Lock, error) {
	return acquire(context.Background(), dir, false)
}

func acquire(ctx context.Context, dir string, wait bool) (*Lock, error) {
	sem, err := semaphore(dir)
	if err != nil {
		return nil, err
	}
	if wait {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
			return nil, fmt.Errorf("installlock: waiting for %s: %w", dir, ctx.Err())
		}
	} else {
		select {
		case sem <- struct{}{}:
		default:
			return nil, ErrBusy
		}
	}
	f, err := openLockFile(dir)
	if err == nil {
		err = lockFile(ctx, f, wait)
	}
	if err != nil {
		<-sem
		return nil, err
	}
	return &Lock{f: f, sem: sem}, nil
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
		<-l.sem
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
