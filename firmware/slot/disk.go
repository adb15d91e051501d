package slot

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/packterm/pos/internal/atomicfile"
)

// disk performs the Store's writes. Before each one it asks fault (nil in production),
// which tests use to stop an install at its k-th write as a power cut would.
type disk struct {
	fault func(op, path string) error
}

func (d *disk) step(op, path string) error {
	if d.fault == nil {
		return nil
	}
	return d.fault(op, path)
}

// writer passes each Write through step.
type writer struct {
	d    *disk
	f    *os.File
	path string
}

func (w *writer) Write(p []byte) (int, error) {
	if err := w.d.step("write", w.path); err != nil {
		return 0, err
	}
	return w.f.Write(p)
}

// writeFile creates path (replacing any), copies r into it, fsyncs and closes it. Not
// through atomicfile: it writes only into a slot directory that resetDir has just made
// empty, the slot's header last, and install syncs the directory once all are written; a
// slot without a header is never booted, so a cut leaves nothing that counts.
func (d *disk) writeFile(path string, perm os.FileMode, r io.Reader) (err error) {
	if err := d.step("create", path); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	if err != nil {
		return fmt.Errorf("slot: %w", err)
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("slot: %w", cerr)
		}
	}()
	buf := make([]byte, 64<<10)
	if _, err := io.CopyBuffer(&writer{d, f, path}, struct{ io.Reader }{r}, buf); err != nil {
		return err
	}
	if err := d.step("fsync", path); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("slot: fsync %s: %w", path, err)
	}
	return nil
}

// syncDir fsyncs a directory so the names created in it are durable (atomicfile's, its
// step through fault).
func (d *disk) syncDir(dir string) error {
	if err := d.atomic().SyncDir(dir); err != nil {
		return fmt.Errorf("slot: %w", err)
	}
	return nil
}

// atomic is atomicfile's writer, each of its steps through fault (atomicfile's step names).
func (d *disk) atomic() atomicfile.Writer {
	return atomicfile.Writer{Fault: func(s atomicfile.Step, name string) error { return d.step(string(s), name) }}
}

// replace writes path atomically: a temporary file in the same directory, fsync, rename,
// fsync of the directory. A cut at any point leaves the old file or the new one.
// Each of its steps goes through fault (atomicfile's step names).
func (d *disk) replace(path string, data []byte) error {
	if err := d.atomic().WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("slot: %w", err)
	}
	return nil
}

// resetDir removes dir and everything in it, then creates it empty.
func (d *disk) resetDir(dir string) error {
	if err := d.step("remove", dir); err != nil {
		return err
	}
	if err := os.RemoveAll(dir); err != nil {
		return fmt.Errorf("slot: %w", err)
	}
	if err := d.step("mkdir", dir); err != nil {
		return err
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		return fmt.Errorf("slot: %w", err)
	}
	return d.syncDir(filepath.Dir(dir))
}
