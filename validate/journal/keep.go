package journal

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	bolt "go.etcd.io/bbolt"
)

// ErrMissing: the journal file is gone, empty or older than its head marker on a terminal
// that had a journal. The journal is in its no-payout state; only a technician's Reset
// starts a new one.
var ErrMissing = errors.New("journal missing or replaced")

// ErrNotRefused: Reset on a journal that was not refused (ErrMissing).
var ErrNotRefused = errors.New("journal not refused: nothing to reset")

// Evidence is one sign that this terminal has had a journal: a file the journal or the
// terminal writes only once a journal exists (docs/journal.md, "A journal is never
// silently replaced").
type Evidence struct {
	What string // where it was found, for the technician: "device.key", "state/done.seq (record 12)"
	// Seq, when not 0, is a record the terminal's journal had; with HasHash, Hash is that
	// record's hash (a head marker).
	Seq     uint64
	Hash    [32]byte
	HasHash bool
	// Terminal is the terminal the evidence names ("" when it names none).
	Terminal string
}

// Decision is what Open does with a journal file that is missing or empty.
type Decision int

// The decisions.
const (
	Fresh  Decision = iota // nothing says there was a journal: a first start, create one
	Refuse                 // something does: no new journal without a technician's Reset
)

func (d Decision) String() string {
	if d == Fresh {
		return "fresh"
	}
	return "refuse"
}

// Decide is the rule: a new journal only when no evidence at all says there was one.
func Decide(ev []Evidence) Decision {
	if len(ev) == 0 {
		return Fresh
	}
	return Refuse
}

// LastSeen is the latest record the evidence names: the new journal of a Reset goes on
// after it (its first record is seq+1, chained to hash when hasHash), so that record ids
// and receipt ids never collide with the old journal's.
func LastSeen(ev []Evidence) (seq uint64, hash [32]byte, hasHash bool) {
	for _, e := range ev {
		switch {
		case e.Seq > seq:
			seq, hash, hasHash = e.Seq, e.Hash, e.HasHash
		case e.Seq == seq && e.HasHash && !hasHash:
			hash, hasHash = e.Hash, true
		}
	}
	return seq, hash, hasHash
}

// MissingError is why a journal was refused: its Health in the no-payout state.
type MissingError struct {
	Reason   string // "journal.db missing", "journal.db empty (0 bytes)", "journal.db ends at record 3, ..."
	Cause    string // for the reset record: "missing", "emptied", "older"
	Evidence []Evidence
}

func (e *MissingError) Error() string {
	return fmt.Sprintf("journal: refused: %s on a terminal that had a journal (%s): a new journal is started only by a technician's reset",
		e.Reason, evidenceNames(e.Evidence))
}

// Unwrap makes errors.Is(err, ErrMissing) true.
func (e *MissingError) Unwrap() error { return ErrMissing }

// Missing is the *MissingError of a refused journal, nil otherwise.
func (j *Journal) Missing() *MissingError {
	j.mu.Lock()
	defer j.mu.Unlock()
	var me *MissingError
	if errors.As(j.health, &me) {
		return me
	}
	return nil
}

// fileEvidence is what the journal's own directory and the head marker copies say, and
// the caller's witness.
func fileEvidence(dir string, o Options) []Evidence {
	var ev []Evidence
	for _, name := range []string{DeviceKeyFile, DevicePubFile} {
		if _, err := os.Lstat(filepath.Join(dir, name)); err == nil {
			ev = append(ev, Evidence{What: name})
		}
	}
	for _, p := range markerPaths(dir, o) {
		b, err := readSmall(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case err != nil:
			ev = append(ev, Evidence{What: shortPath(dir, p) + " (unreadable)"})
			continue
		}
		h, err := ParseHead(b)
		if err != nil {
			ev = append(ev, Evidence{What: shortPath(dir, p) + " (damaged)"})
			continue
		}
		ev = append(ev, Evidence{What: fmt.Sprintf("%s (record %d)", shortPath(dir, p), h.Seq), Seq: h.Seq, Hash: h.Hash, HasHash: true, Terminal: h.Terminal})
	}
	if o.Witness != nil {
		ev = append(ev, o.Witness()...)
	}
	return ev
}

// readSmall reads a marker file, refusing one too large to be one.
func readSmall(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, maxHeadLen+1))
}

// shortPath names p relative to the journal directory's parent (the data directory):
// "journal/journal.head", "state/journal.head".
func shortPath(dir, p string) string {
	if rel, err := filepath.Rel(filepath.Dir(dir), p); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return p
}

// checkFresh decides, before anything is written, what to do with a journal file that is
// missing (st nil) or empty: nil to create one (a first start), or the *MissingError that
// refuses it.
func checkFresh(dir string, o Options, empty bool) *MissingError {
	ev := fileEvidence(dir, o)
	reason, cause := DBFile+" missing", "missing"
	if empty {
		cause = "emptied"
		// create never leaves an empty file (it renames a whole one into place): an empty
		// journal file was emptied.
		reason = DBFile + " empty (0 bytes)"
		ev = append([]Evidence{{What: DBFile + " (0 bytes)"}}, ev...)
	}
	if Decide(ev) == Fresh {
		return nil
	}
	return &MissingError{Reason: reason, Cause: cause, Evidence: ev}
}

// checkNotOlder compares a verified journal with what the markers and the witness say of
// its head: a head they saw later than the file's, or another record at the marker's
// sequence number, means the file was replaced (an older copy, another journal). repaired
// allows the one record a torn last transaction loses.
func (j *Journal) checkNotOlder(o Options, repaired bool) *MissingError {
	head := j.head
	ev := append(fileEvidence(j.dir, o), Evidence{What: fmt.Sprintf("%s (record %d)", DBFile, head), Seq: head, Hash: j.headHash, HasHash: head > 0, Terminal: j.terminal})
	slack := uint64(0)
	if repaired {
		slack = 1
	}
	for _, e := range ev {
		if e.Seq == 0 || e.What == ev[len(ev)-1].What || (e.Terminal != "" && e.Terminal != j.terminal) {
			continue
		}
		if e.Seq > head+slack {
			return &MissingError{Reason: fmt.Sprintf("%s ends at record %d, %s", DBFile, head, e.What), Cause: "older", Evidence: ev}
		}
		if !e.HasHash || e.Seq > head {
			continue
		}
		var other bool
		err := j.view("check head marker", func(tx *bolt.Tx) error {
			from, prev, err := readBase(tx.Bucket(bMeta))
			switch {
			case err != nil || e.Seq+1 < from: // before a reset's base: not in this file
			case e.Seq+1 == from:
				other = prev != ([32]byte{}) && prev != e.Hash
			default:
				r, ok, err := recordAt(tx, e.Seq, true)
				other = err == nil && (!ok || r.Hash != e.Hash)
			}
			return nil
		})
		if err == nil && other {
			return &MissingError{Reason: fmt.Sprintf("%s holds another record %d than %s", DBFile, e.Seq, e.What), Cause: "replaced", Evidence: ev}
		}
	}
	return nil
}

// refuseFresh is Open's first step for writing: nil when the journal file is there;
// fresh when it is missing on a first start (firstStart creates it); the *MissingError
// otherwise (missing with evidence, or empty).
func refuseFresh(dir, path string, o Options) (me *MissingError, fresh bool, err error) {
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		me = checkFresh(dir, o, false)
		return me, me == nil, nil
	case err != nil:
		return nil, false, fmt.Errorf("journal: open: %w", err)
	case st.Size() == 0:
		return checkFresh(dir, o, true), false, nil
	}
	return nil, false, nil
}

// refuse enters the refused no-payout state.
func (j *Journal) refuse(me *MissingError) {
	j.mu.Lock()
	j.health = me
	j.mu.Unlock()
	j.log.Error("journal: refused: no sale or payout until a technician starts a new journal", "reason", me.Reason,
		"evidence", evidenceNames(me.Evidence))
}

func evidenceNames(ev []Evidence) string {
	what := make([]string, len(ev))
	for i, e := range ev {
		what[i] = e.What
	}
	return strings.Join(what, ", ")
}

// headMark is the marker of the current head (j.mu held, or no concurrent use).
func (j *Journal) headMark() Head {
	return Head{Terminal: j.terminal, Seq: j.head, Hash: j.headHash, Key: keyID(j.pub), Time: j.clock.Now()}
}

// readBase is where the chain starts: after record seq (hash prev) for a journal started
// afresh by Reset, at record 1 otherwise.
func readBase(m *bolt.Bucket) (from uint64, prev [32]byte, err error) {
	v := m.Get(kBase)
	if v == nil {
		return 1, prev, nil
	}
	if len(v) != 40 {
		return 0, prev, corrupt(0, "stored base is malformed")
	}
	copy(prev[:], v[8:])
	return u64(v[:8]) + 1, prev, nil
}
