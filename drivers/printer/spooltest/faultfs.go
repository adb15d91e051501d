// Package spooltest has a filesystem for the printer's spool that fails on demand: full
// (ENOSPC on every write, no space left) or read-only (EROFS on every change), for tests
// of what a terminal does when its receipts cannot be kept.
package spooltest

import (
	"io/fs"
	"sync"
	"syscall"

	"github.com/packterm/pos/drivers/printer"
)

// FaultFS is the real filesystem, failing as set. Its methods are safe for concurrent use.
type FaultFS struct {
	printer.OSFS
	mu       sync.Mutex
	full     bool
	readOnly bool
	renames  bool // renames fail (EIO): staged receipts are not queued
	writes   int
}

// SetRenameFails makes renames fail with EIO (a staged receipt cannot be queued: the
// window between a record's commit and its receipts' queuing).
func (f *FaultFS) SetRenameFails(on bool) {
	f.mu.Lock()
	f.renames = on
	f.mu.Unlock()
}

var _ printer.FS = (*FaultFS)(nil)

// SetFull makes every write fail with ENOSPC and Avail say 0 (false: the space is back).
func (f *FaultFS) SetFull(on bool) {
	f.mu.Lock()
	f.full = on
	f.mu.Unlock()
}

// SetReadOnly makes every change fail with EROFS (false: writable again).
func (f *FaultFS) SetReadOnly(on bool) {
	f.mu.Lock()
	f.readOnly = on
	f.mu.Unlock()
}

// Writes is the number of files written so far.
func (f *FaultFS) Writes() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.writes
}

func (f *FaultFS) state() (full, ro bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.full, f.readOnly
}

func pathErr(op, name string, err error) error { return &fs.PathError{Op: op, Path: name, Err: err} }

// WriteFile implements printer.FS.
func (f *FaultFS) WriteFile(name string, data []byte) error {
	full, ro := f.state()
	switch {
	case ro:
		return pathErr("open", name, syscall.EROFS)
	case full:
		return pathErr("write", name, syscall.ENOSPC)
	}
	f.mu.Lock()
	f.writes++
	f.mu.Unlock()
	return f.OSFS.WriteFile(name, data)
}

// MkdirAll implements printer.FS.
func (f *FaultFS) MkdirAll(dir string, perm fs.FileMode) error {
	if _, ro := f.state(); ro {
		return pathErr("mkdir", dir, syscall.EROFS)
	}
	return f.OSFS.MkdirAll(dir, perm)
}

// Rename implements printer.FS.
func (f *FaultFS) Rename(oldpath, newpath string) error {
	if _, ro := f.state(); ro {
		return pathErr("rename", oldpath, syscall.EROFS)
	}
	f.mu.Lock()
	fail := f.renames
	f.mu.Unlock()
	if fail {
		return pathErr("rename", oldpath, syscall.EIO)
	}
	return f.OSFS.Rename(oldpath, newpath)
}

// Remove implements printer.FS.
func (f *FaultFS) Remove(name string) error {
	if _, ro := f.state(); ro {
		return pathErr("remove", name, syscall.EROFS)
	}
	return f.OSFS.Remove(name)
}

// Avail implements printer.FS.
func (f *FaultFS) Avail(dir string) (uint64, error) {
	if full, _ := f.state(); full {
		return 0, nil
	}
	return f.OSFS.Avail(dir)
}
