//go:build !unix

package installlock

import (
	"context"
	"os"
	"sync"
)

const openFlags = 0

// Without flock a mutex per lock file stands in (within this process only); the wait
// does not end with ctx.
var mutexes sync.Map // lock file path -> *sync.Mutex

func mutexOf(f *os.File) *sync.Mutex {
	m, _ := mutexes.LoadOrStore(f.Name(), new(sync.Mutex))
	return m.(*sync.Mutex)
}

func lockFile(_ context.Context, f *os.File, wait bool) error {
	m := mutexOf(f)
	if wait {
		m.Lock()
		return nil
	}
	if !m.TryLock() {
		f.Close()
		return ErrBusy
	}
	return nil
}

func unlockFile(f *os.File) error {
	mutexOf(f).Unlock()
	return nil
}
