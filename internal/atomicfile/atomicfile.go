// Package atomicfile writes a file so that a crash or a refusal leaves either the old
// file or the whole new one: write to a temporary file in the same directory, fsync,
// optionally check it, rename it into place, fsync the directory (without which the
// rename itself may not survive a power cut). It is the one place the tree does this.
// CreateNew makes a file that must replace nothing (O_EXCL, fsync, directory fsync).
//
// Writer's zero value is the real thing; its Fault hook lets a test fail a write at any
// step (or watch the steps go by). The package functions use the zero Writer.
package atomicfile

import (
	"bufio"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Step is a step of an atomic write, as Writer.Fault sees it.
type Step string

// The steps, in order. CreateNew takes some of them (CreateSteps), each naming the new
// file but StepSyncDir.
const (
	StepCreate  Step = "create"    // the temporary file, in the target's directory (name: the directory)
	StepWrite   Step = "write"     // its content and mode (name: the temporary file)
	StepSync    Step = "fsync"     // its fsync (name: the temporary file)
	StepClose   Step = "close"     // its close (name: the temporary file)
	StepCheck   Step = "check"     // the caller's check of the synced copy (name: the temporary file)
	StepRename  Step = "rename"    // over the target (name: the target)
	StepSyncDir Step = "fsync-dir" // the directory's fsync, making the rename durable (name: the directory)
)

// Steps lists the steps in the order a write takes them.
func Steps() []Step {
	return []Step{StepCreate, StepWrite, StepSync, StepClose, StepCheck, StepRename, StepSyncDir}
}

// Writer writes files atomically.
type Writer struct {
	// Fault, when not nil (tests), is called before each step with the step and the name
	// it acts on; an error it returns fails the write there, as the step's own failure
	// would (the temporary file is removed; the target is left as it was unless the
	// rename has been made).
	Fault func(step Step, name string) error
}

func (w Writer) step(s Step, name string) error {
	if w.Fault == nil {
		return nil
	}
	return w.Fault(s, name)
}

// Write writes path through write with mode. When check is not nil it is called with the
// synced temporary file's path before the rename, and its error is returned as it is; on
// any failure path is left as it was.
func Write(path string, mode fs.FileMode, write func(io.Writer) error, check func(tmp string) error) error {
	return Writer{}.Write(path, mode, write, check)
}

// WriteFile writes data to path with mode.
func WriteFile(path string, data []byte, mode fs.FileMode) error {
	return Writer{}.WriteFile(path, data, mode)
}

// Stage writes a temporary file next to path (synced, closed) for a later Commit, and
// returns its name; the caller removes it if it never commits it.
func Stage(path string, mode fs.FileMode, write func(io.Writer) error) (tmp string, err error) {
	return Writer{}.Stage(path, mode, write)
}

// Commit renames the synced temporary file tmp over path (in the same directory) and
// syncs the directory, so that the rename survives a crash.
func Commit(tmp, path string) error { return Writer{}.Commit(tmp, path) }

// WriteFile writes data to path with mode.
func (w Writer) WriteFile(path string, data []byte, mode fs.FileMode) (err error) {
	tmp, err := w.stage(path, mode, func(out io.Writer) error { _, err := out.Write(data); return err }, false)
	if err != nil {
		return err
	}
	if err = w.Commit(tmp, path); err != nil {
		os.Remove(tmp)
	}
	return err
}

// Write is the package's Write through w.
func (w Writer) Write(path string, mode fs.FileMode, write func(io.Writer) error, check func(tmp string) error) (err error) {
	tmp, err := w.Stage(path, mode, write)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			os.Remove(tmp)
		}
	}()
	if check != nil {
		if err = w.step(StepCheck, tmp); err != nil {
			return fmt.Errorf("atomicfile: checking %s: %w", path, err)
		}
		if err = check(tmp); err != nil {
			return err
		}
	}
	return w.Commit(tmp, path)
}

// Stage is the package's Stage through w.
func (w Writer) Stage(path string, mode fs.FileMode, write func(io.Writer) error) (tmp string, err error) {
	return w.stage(path, mode, write, true)
}

// stage is Stage, its writes buffered (1 MiB: ledgers, bundles) or not (WriteFile's one
// write of small state files).
func (w Writer) stage(path string, mode fs.FileMode, write func(io.Writer) error, buffered bool) (tmp string, err error) {
	dir := filepath.Dir(path)
	if err := w.step(StepCreate, dir); err != nil {
		return "", fmt.Errorf("atomicfile: writing %s: %w", path, err)
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return "", fmt.Errorf("atomicfile: writing %s: %w", path, err)
	}
	name := f.Name()
	closed := false
	defer func() {
		if err != nil {
			if !closed {
				f.Close()
			}
			os.Remove(name)
		}
	}()
	if err = w.step(StepWrite, name); err != nil {
		return "", fmt.Errorf("atomicfile: writing %s: %w", path, err)
	}
	var out io.Writer = f
	var bw *bufio.Writer
	if buffered {
		bw = bufio.NewWriterSize(f, 1<<20)
		out = bw
	}
	if err = write(out); err == nil && bw != nil {
		err = bw.Flush()
	}
	if err != nil {
		return "", fmt.Errorf("atomicfile: writing %s: %w", path, err)
	}
	if err = f.Chmod(mode); err != nil {
		return "", fmt.Errorf("atomicfile: writing %s: %w", path, err)
	}
	if err = w.step(StepSync, name); err == nil {
		err = f.Sync()
	}
	if err != nil {
		return "", fmt.Errorf("atomicfile: syncing %s: %w", path, err)
	}
	if err = w.step(StepClose, name); err != nil {
		return "", fmt.Errorf("atomicfile: writing %s: %w", path, err)
	}
	closed = true
	if err = f.Close(); err != nil {
		return "", fmt.Errorf("atomicfile: writing %s: %w", path, err)
	}
	return name, nil
}

// Commit is the package's Commit through w.
func (w Writer) Commit(tmp, path string) error {
	err := w.step(StepRename, path)
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		return fmt.Errorf("atomicfile: renaming %s: %w", path, err)
	}
	return w.SyncDir(filepath.Dir(path))
}

// SyncDir fsyncs directory dir, so that the names made in it (a rename, a new file)
// survive a crash.
func (w Writer) SyncDir(dir string) error {
	if err := w.step(StepSyncDir, dir); err != nil {
		return fmt.Errorf("atomicfile: syncing %s: %w", dir, err)
	}
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

// SyncDir fsyncs directory dir.
func SyncDir(dir string) error { return Writer{}.SyncDir(dir) }
