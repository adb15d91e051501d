package printer

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/packterm/pos/internal/atomicfile"
)

// FS is what the spool needs of the filesystem. OSFS is the real one; tests put a
// filesystem that fails (full, read-only) in its place.
type FS interface {
	MkdirAll(dir string, perm fs.FileMode) error
	ReadDir(dir string) ([]fs.DirEntry, error)
	ReadFile(name string) ([]byte, error)
	// WriteFile creates or truncates name, writes data and fsyncs it.
	WriteFile(name string, data []byte) error
	Rename(oldpath, newpath string) error
	Remove(name string) error
	// SyncDir fsyncs a directory (its entries are durable).
	SyncDir(dir string) error
	// Avail is the space left, in bytes, to a writer that is not root on dir's filesystem.
	Avail(dir string) (uint64, error)
}

// OSFS is the operating system's filesystem.
type OSFS struct{}

var _ FS = OSFS{}

// MkdirAll implements FS.
func (OSFS) MkdirAll(dir string, perm fs.FileMode) error { return os.MkdirAll(dir, perm) }

// ReadDir implements FS.
func (OSFS) ReadDir(dir string) ([]fs.DirEntry, error) { return os.ReadDir(dir) }

// ReadFile implements FS.
func (OSFS) ReadFile(name string) ([]byte, error) { return os.ReadFile(name) }

// Rename implements FS. The spool's writes are not atomicfile's one-file replacement:
// Stage writes several receipts under staged names (WriteFile, each fsynced) and syncs the
// directory, Commit renames them into the queue in order and syncs it once (List moves
// a damaged receipt aside, .bad), all through FS so that the tests fill the filesystem
// or make it read-only at any of those steps.
func (OSFS) Rename(oldpath, newpath string) error { return os.Rename(oldpath, newpath) }

// Remove implements FS.
func (OSFS) Remove(name string) error { return os.Remove(name) }

// WriteFile implements FS.
func (OSFS) WriteFile(name string, data []byte) error {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = os.Remove(name)
	}
	return err
}

// SyncDir implements FS.
func (OSFS) SyncDir(dir string) error { return atomicfile.SyncDir(dir) }

// ErrSpool: the spool cannot keep a receipt (a full or read-only filesystem, an I/O
// error). Receipts it could not keep are not in it: whatever they record must not be
// said done.
var ErrSpool = errors.New("receipt spool cannot keep receipts")

// ErrSpoolFull: the spool's filesystem has less than the headroom left (it wraps
// ErrSpool).
var ErrSpoolFull = fmt.Errorf("filesystem full: %w", ErrSpool)
