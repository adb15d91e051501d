// Package atomicfile writes a file so that a crash or a refusal leaves either the old
// file or the whole new one: write to a temporary file in the same directory, fsync,
// optionally check it, rename it into place, fsync the directory.
package atomicfile

import (
	"bufio"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Write writes path through write with the given mode. When check is not nil it is
// called with the synced temporary file's path before the rename, and its error is
// returned as it is; on any failure path is left as it was.
func Write(path string, mode fs.FileMode, write func(io.Writer) error, check func(tmp string) error) (err error) {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("atomicfile: writing %s: %w", path, err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	bw := bufio.NewWriterSize(f, 1<<20)
	if err = write(bw); err != nil {
		return fmt.Errorf("atomicfile: writing %s: %w", path, err)
	}
	if err = bw.Flush(); err != nil {
		return fmt.Errorf("atomicfile: writing %s: %w", path, err)
	}
	if err = f.Chmod(mode); err != nil {
		return fmt.Errorf("atomicfile: writing %s: %w", path, err)
	}
	if err = f.Sync(); err != nil {
		return fmt.Errorf("atomicfile: syncing %s: %w", path, err)
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("atomicfile: writing %s: %w", path, err)
	}
	if check != nil {
		if err = check(tmp); err != nil {
			return err
		}
	}
	return Commit(tmp, path)
}

// Commit renames the synced temporary file tmp over path (in the same directory) and
// syncs the directory, so that the rename survives a crash.
func Commit(tmp, path string) error {
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("atomicfile: renaming %s: %w", path, err)
	}
	dir := filepath.Dir(path)
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("atomicfile: syncing %s: %w", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("atomicfile: syncing %s: %w", dir, err)
	}
	return nil
}
