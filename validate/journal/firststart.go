package journal

import (
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	bolt "go.etcd.io/bbolt"

	"github.com/packterm/pos/validate/ledger"
)

// stagedSuffix names the files of a first start before they are renamed into place
// (journal.db.new, device.key.new, device.pub.new). They are never evidence of a journal:
// a first start cut short leaves only them, or a whole journal.db.
const stagedSuffix = ".new"

// stagedFiles are the names a first start writes before renaming them into place.
var stagedFiles = []string{DBFile + stagedSuffix, DeviceKeyFile + stagedSuffix, DevicePubFile + stagedSuffix}

// firstStart creates a terminal's first journal at path (docs/journal.md, "First
// start") so that a kill at any point leaves either only staged files, which the next
// Open removes before starting again as a first start, or a whole journal.db with its
// key staged or in place. Every file is written under its staged name and fsynced;
// journal.db is renamed into place first (the directory fsynced), then device.key and
// device.pub, then the directory fsynced again. The head markers are written by open,
// after. So device.key, device.pub and the markers, which are evidence that the terminal
// had a journal, are never there without journal.db.
func (j *Journal) firstStart(path string, o Options) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("journal: first start: %w", err)
	}
	if err := removeStaged(dir); err != nil {
		return err
	}
	if o.DeviceKey == nil {
		if err := j.stageKey(dir, o); err != nil {
			return err
		}
	}
	if err := j.stageJournal(path, o); err != nil {
		return err
	}
	// journal.db first: until it is in place, nothing the evidence counts is there.
	steps := [][]string{{DBFile}}
	if o.DeviceKey == nil {
		steps = append(steps, []string{DeviceKeyFile, DevicePubFile})
	}
	for _, names := range steps {
		for _, name := range names {
			if err := o.cut("rename " + name); err != nil {
				return err
			}
			p := filepath.Join(dir, name)
			// By hand, not atomicfile.Commit: the order of these renames and of the
			// directory's fsyncs, each step cut by the tests (o.cut), is the protocol.
			if err := os.Rename(p+stagedSuffix, p); err != nil {
				return fmt.Errorf("journal: first start: %w", err)
			}
		}
		if err := o.cut("sync directory after " + names[len(names)-1]); err != nil {
			return err
		}
		if err := syncDir(dir); err != nil {
			return fmt.Errorf("journal: first start: %w", err)
		}
	}
	return nil
}

// stageKey makes the device key and writes it as device.key.new (0600) and
// device.pub.new, each fsynced.
func (j *Journal) stageKey(dir string, o Options) error {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return fmt.Errorf("journal: first start: device key: %w", err)
	}
	comment := "device " + j.terminal + " " + ledger.IDOf(pub).String()
	files := []struct {
		name string
		mode fs.FileMode
		text []byte
	}{
		{DeviceKeyFile, 0o600, ledger.MarshalPrivateKey(priv, comment)},
		{DevicePubFile, 0o644, ledger.MarshalPublicKey(pub, comment)},
	}
	for _, f := range files {
		if err := o.cut("stage " + f.name); err != nil {
			return err
		}
		if err := writeSynced(filepath.Join(dir, f.name+stagedSuffix), f.mode, f.text); err != nil {
			return fmt.Errorf("journal: first start: device key: %w", err)
		}
	}
	return nil
}

// stageJournal writes a new, empty journal (its buckets, format and terminal) as
// journal.db.new; bbolt fsyncs it on commit.
func (j *Journal) stageJournal(path string, o Options) error {
	if err := o.cut("stage " + DBFile); err != nil {
		return err
	}
	db, err := bolt.Open(path+stagedSuffix, 0o600, &bolt.Options{Timeout: lockTimeout, FreelistType: bolt.FreelistArrayType, PageSize: o.pageSize})
	if err != nil {
		return fmt.Errorf("journal: first start: %w", err)
	}
	err = o.cut("commit " + DBFile)
	if err == nil {
		err = db.Update(j.initNew) // buckets and epoch
	}
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("journal: first start: %w", err)
	}
	return nil
}

// finishFirstStart, on an open for writing of an existing journal.db with no key given,
// completes a first start cut after journal.db was renamed into place: a staged device
// key with no device.key is renamed into place (device.pub is written from it by
// loadKeys when missing). Any other staged file is a leftover, removed. A staged key
// proves nothing and takes nothing away: whoever could put one there could write
// device.key itself, and the records it does not sign are refused as any other key's.
func finishFirstStart(dir string) error {
	keyPath := filepath.Join(dir, DeviceKeyFile)
	if _, err := os.Lstat(keyPath); errors.Is(err, fs.ErrNotExist) {
		if _, err := ledger.LoadPrivateKey(keyPath + stagedSuffix); err == nil {
			// The first start's own rename (written and synced by stageKey), finished.
			if err := os.Rename(keyPath+stagedSuffix, keyPath); err != nil {
				return fmt.Errorf("journal: finishing the first start: %w", err)
			}
			if err := syncDir(dir); err != nil {
				return fmt.Errorf("journal: finishing the first start: %w", err)
			}
		}
	}
	return removeStaged(dir)
}

// removeStaged removes the staged files of a first start cut short.
func removeStaged(dir string) error {
	for _, name := range stagedFiles {
		if err := os.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("journal: removing %s left by a first start cut short: %w", name, err)
		}
	}
	return nil
}

// writeSynced writes a new file at path (replacing any) with mode, fsynced.
func writeSynced(path string, mode fs.FileMode, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, mode)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(mode)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// cut is the test hook of firstStart and open: before each step that writes, nil to go
// on, or an error that stops Open there, leaving what was written as a kill would.
func (o Options) cut(step string) error {
	if o.cutAt == nil {
		return nil
	}
	return o.cutAt(step)
}
