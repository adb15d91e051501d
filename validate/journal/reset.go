package journal

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"unicode/utf8"

	bolt "go.etcd.io/bbolt"

	"github.com/packterm/pos/internal/atomicfile"
	"github.com/packterm/pos/validate/ledger"
)

// Reset starts a new journal where a refused one was (Health is a *MissingError): the
// technician's explicit decision, never Open's. Whatever file was found (an empty one,
// an older journal) is moved aside as evidence, not removed; a device key whose private
// half is gone is replaced (its public half moved aside too). The new journal's first
// record, of kind KindReset, is written in the transaction that creates it. It goes on
// after the last record the evidence names (LastSeen): its sequence number is that one's
// + 1 and, when a head marker gave that record's hash, it is chained to it, so record
// ids and receipt ids never collide with the old journal's, and the fleet, which has
// the old records, sees the new chain start where the old one stopped. Detail says who
// (by), the last record seen and its hash, the device key before and now, and the
// evidence; Reason says what was found ("missing", "emptied", "older").
//
// The journal j stays refused: the new journal is opened by the next Open (the daemon
// restarts). A second Reset fails.
func (j *Journal) Reset(by string) (Record, error) {
	me := j.Missing()
	switch {
	case j.readOnly:
		return Record{}, fmt.Errorf("journal: reset: opened read-only: %w", ErrReadOnly)
	case me == nil:
		return Record{}, fmt.Errorf("journal: reset: %w", ErrNotRefused)
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.reset != nil {
		return Record{}, fmt.Errorf("journal: reset: done already (record %d): restart to open it", j.reset.Seq)
	}
	stamp := j.clock.Now().UTC().Format("20060102T150405Z")
	path := filepath.Join(j.dir, DBFile)
	oldKey := "none"
	if pub, err := ledger.LoadPublicKey(filepath.Join(j.dir, DevicePubFile)); err == nil {
		oldKey = ledger.IDOf(pub).String()
	}
	if err := moveAside(path, stamp); err != nil {
		return Record{}, err
	}
	if _, err := os.Stat(filepath.Join(j.dir, DeviceKeyFile)); errors.Is(err, fs.ErrNotExist) && j.opts.DeviceKey == nil {
		if err := moveAside(filepath.Join(j.dir, DevicePubFile), stamp); err != nil {
			return Record{}, err
		}
	}
	if err := j.loadKeys(j.opts); err != nil {
		return Record{}, err
	}
	seq, hash, hasHash := LastSeen(me.Evidence)
	hashText := "unknown"
	if hasHash {
		hashText = fmt.Sprintf("%x", hash[:])
	} else {
		hash = [32]byte{}
	}
	e := Entry{Kind: KindReset, Reason: me.cause(), Detail: clip(fmt.Sprintf(
		"started afresh by %s; found: %s; last record seen %d, hash %s; device key %s, before %s; evidence: %s",
		by, me.Reason, seq, hashText, ledger.IDOf(j.pub).String(), oldKey, evidenceNames(me.Evidence)), MaxDetailLen)}
	r, err := j.createAfter(path, seq, hash, e)
	if err != nil {
		return Record{}, err
	}
	j.reset = &r
	marks := openMarks(markerPaths(j.dir, j.opts), j.log)
	marks.write(Head{Terminal: j.terminal, Seq: r.Seq, Hash: r.Hash, Key: keyID(j.pub), Time: r.Time}, true)
	marks.close()
	j.log.Warn("journal: started afresh by a technician", "by", by, "first record", r.Seq, "last seen", seq, "hash known", hasHash)
	return r, nil
}

// createAfter creates the journal file at path, atomically as create does, holding the
// base (seq, hash) and the record of e as record seq+1.
func (j *Journal) createAfter(path string, seq uint64, hash [32]byte, e Entry) (Record, error) {
	tmp := path + ".new"
	if err := os.Remove(tmp); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return Record{}, fmt.Errorf("journal: reset: %w", err)
	}
	db, err := bolt.Open(tmp, 0o600, &bolt.Options{Timeout: lockTimeout, FreelistType: bolt.FreelistArrayType, PageSize: j.opts.pageSize})
	if err != nil {
		return Record{}, fmt.Errorf("journal: reset: %w", err)
	}
	var r Record
	err = db.Update(func(tx *bolt.Tx) error {
		if err := j.initNew(tx); err != nil {
			return err
		}
		m := tx.Bucket(bMeta)
		if err := m.Put(kBase, append(be64(seq), hash[:]...)); err != nil {
			return err
		}
		if err := m.Put(kBoot, be64(1)); err != nil {
			return err
		}
		j.boot = 1
		var err error
		if r, err = j.prepare(e, seq+1, hash); err != nil {
			return err
		}
		return putRecord(tx, &r, sealSigned(j.priv, ledger.IDOf(j.pub), &r))
	})
	j.boot = 0
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = atomicfile.Commit(tmp, path) // rename, then fsync of the directory
	}
	if err != nil {
		os.Remove(tmp)
		return Record{}, fmt.Errorf("journal: reset: %w", err)
	}
	return r, nil
}

// moveAside renames path to path.replaced-STAMP, if it exists.
func moveAside(path, stamp string) error {
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	// A rename, not a write (atomicfile's business): what was found is kept whole under
	// another name, and the directory synced.
	if err := os.Rename(path, path+".replaced-"+stamp); err != nil {
		return fmt.Errorf("journal: reset: keeping what was found: %w", err)
	}
	return syncDir(filepath.Dir(path))
}

// cause is the reset record's Reason.
func (e *MissingError) cause() string {
	if e.Cause == "" {
		return "missing"
	}
	return e.Cause
}

// clip cuts s to at most n bytes on a rune boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for len(s) > 0 && !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s
}
