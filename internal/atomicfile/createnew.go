package atomicfile

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// CreateSteps lists the steps of a create-new write (CreateNew) in the order it takes
// them; each names the new file but the last, which names its directory.
func CreateSteps() []Step {
	return []Step{StepCreate, StepWrite, StepSync, StepClose, StepSyncDir}
}

// CreateNew writes a new file at path with mode through write, and fails (wrapping
// fs.ErrExist) when anything is at path already, a dangling symbolic link included: the
// file is created with O_EXCL, written, given mode, fsynced, closed, and its directory is
// fsynced so that its name survives a power cut. It is for files made once that must
// never replace another (keys, credentials, signed statements, a technician's card).
//
// On any failure the file it created is removed: an error means that path was not made
// (what was at path before is never touched). A crash between the create and the fsync
// can still leave a short file at path, which the next CreateNew refuses to replace: the
// files made this way are made by a person's command, who removes it and runs it again.
func CreateNew(path string, mode fs.FileMode, write func(io.Writer) error) error {
	return Writer{}.CreateNew(path, mode, write)
}

// WriteNew writes data to a new file at path with mode (CreateNew).
func WriteNew(path string, data []byte, mode fs.FileMode) error {
	return Writer{}.WriteNew(path, data, mode)
}

// WriteNew is the package's WriteNew through w.
func (w Writer) WriteNew(path string, data []byte, mode fs.FileMode) error {
	return w.CreateNew(path, mode, func(out io.Writer) error { _, err := out.Write(data); return err })
}

// CreateNew is the package's CreateNew through w: the hook sees CreateSteps.
func (w Writer) CreateNew(path string, mode fs.FileMode, write func(io.Writer) error) (err error) {
	if err := w.step(StepCreate, path); err != nil {
		return fmt.Errorf("atomicfile: creating %s: %w", path, err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode.Perm())
	if err != nil {
		return fmt.Errorf("atomicfile: creating %s: %w", path, err)
	}
	closed := false
	defer func() {
		if err != nil {
			if !closed {
				f.Close()
			}
			os.Remove(path)
		}
	}()
	if err = w.step(StepWrite, path); err == nil {
		err = write(f)
	}
	if err == nil {
		err = f.Chmod(mode) // the mode asked for, whatever the umask
	}
	if err != nil {
		return fmt.Errorf("atomicfile: creating %s: %w", path, err)
	}
	if err = w.step(StepSync, path); err == nil {
		err = f.Sync()
	}
	if err != nil {
		return fmt.Errorf("atomicfile: syncing %s: %w", path, err)
	}
	if err = w.step(StepClose, path); err != nil {
		return fmt.Errorf("atomicfile: creating %s: %w", path, err)
	}
	closed = true
	if err = f.Close(); err != nil {
		return fmt.Errorf("atomicfile: creating %s: %w", path, err)
	}
	return w.SyncDir(filepath.Dir(path))
}
