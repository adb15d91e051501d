package server

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// LockFile is the lock file of a server's data directory (posctl fleet serve).
const LockFile = "serve.lock"

// ErrDataInUse: another server holds the data directory.
var ErrDataInUse = errors.New("fleet server: data directory in use by another fleet server")

// DataLock is a held lock on a data directory; Release gives it back.
type DataLock struct{ f *os.File }

// LockData takes the lock of the data directory dir (an exclusive flock on
// dir/serve.lock) without waiting: a second server on the same directory would open the
// first one's JetStream store. ErrDataInUse (wrapped, naming the directory) when another
// holds it, in this process or another. The lock goes with the process.
func LockData(dir string) (*DataLock, error) {
	path := filepath.Join(dir, LockFile)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("fleet server: lock: %w", err)
	}
	if err := tryLock(f); err != nil {
		f.Close()
		if errors.Is(err, errWouldBlock) {
			return nil, fmt.Errorf("%w: %s (stop the other posctl fleet serve first, or give another --data)", ErrDataInUse, dir)
		}
		return nil, fmt.Errorf("fleet server: lock %s: %w", path, err)
	}
	return &DataLock{f: f}, nil
}

// Release gives the lock back.
func (l *DataLock) Release() error { return l.f.Close() }
