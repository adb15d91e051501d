package journal

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// openSnapshot copies the file (held by a running terminal) into a private temporary
// directory and opens the copy read-only. bbolt may reuse free pages while the copy is
// taken, so a copy that does not verify is taken again, up to three times.
func (j *Journal) openSnapshot(path string, o Options) error {
	var err error
	for try := 0; try < 3; try++ {
		*j = Journal{dir: j.dir, terminal: o.Terminal, clock: j.clock, log: j.log, readOnly: true, pub: j.pub, keyTrusted: j.keyTrusted}
		if j.tmpDir, err = os.MkdirTemp("", "journal-snapshot-"); err != nil {
			return fmt.Errorf("journal: snapshot: %w", err)
		}
		cp := filepath.Join(j.tmpDir, DBFile)
		if err = copyFile(path, cp); err != nil {
			os.RemoveAll(j.tmpDir)
			return fmt.Errorf("journal: snapshot: %w", err)
		}
		j.snapshot = j.clock.Now()
		if err = j.open(cp, o); err != nil || j.health == nil || try == 2 {
			break
		}
		j.Close()
	}
	if err != nil {
		j.Close()
	}
	return err
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// Snapshot is when the private copy a read-only open works on was taken (the journal
// was in use by a terminal); zero when it reads the journal's own file.
func (j *Journal) Snapshot() time.Time { return j.snapshot }
