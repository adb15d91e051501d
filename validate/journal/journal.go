package journal

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/jonboulle/clockwork"
	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"

	"github.com/packterm/pos/internal/atomicfile"
)

// File names in the journal directory.
const (
	DBFile         = "journal.db"
	DeviceKeyFile  = "device.key"
	DevicePubFile  = "device.pub"
	lockTimeout    = time.Second            // another process holds the journal: fail, do not wait
	roLockTimeout  = 200 * time.Millisecond // then read a copy
	metaFormatWant = 1
)

// Bucket and key names (docs/journal.md, "Buckets").
var (
	bMeta        = []byte("meta")
	bRecords     = []byte("records")
	bPaid        = []byte("paid")
	bSold        = []byte("sold")
	bDays        = []byte("days")
	bCheckpoints = []byte("checkpoints")
	allBuckets   = [][]byte{bMeta, bRecords, bPaid, bSold, bDays, bCheckpoints}

	kFormat   = []byte("format")
	kTerminal = []byte("terminal")
	kBoot     = []byte("boot")
	kHead     = []byte("head")
	kBase     = []byte("base") // a journal started afresh: seq (8) ‖ hash (32) its first record follows
)

// Options configure Open.
type Options struct {
	Terminal  string             // required
	Clock     clockwork.Clock    // nil = real clock
	Logger    *slog.Logger       // nil = discard
	DeviceKey ed25519.PrivateKey // signs checkpoints; nil = load or create DIR/device.key (0600) + device.pub

	// ReadOnly opens without writing anything (verify, export, show): the file is opened
	// O_RDONLY under a shared lock, no key is created, Append fails with ErrReadOnly.
	ReadOnly bool
	// PublicKey checks the checkpoints of a read-only open; nil = DIR/device.pub.
	PublicKey ed25519.PublicKey

	// HeadCopies are more files where the head marker (HeadFile) is kept, outside DIR:
	// the daemon keeps one in its state directory, so that a journal directory removed
	// whole is still known to have been there.
	HeadCopies []string
	// Witness tells of other signs, outside the journal's files, that this terminal has
	// had a journal (the terminal's state, the printer's spool, the fleet client's
	// state). Open asks it when the journal file is missing or empty, and compares the
	// records it names with the head of the file it opens.
	Witness func() []Evidence

	pageSize    int                     // tests: small pages make small files to fuzz
	lockTimeout time.Duration           // tests: how long to wait for another process's lock
	cutAt       func(step string) error // tests: a kill before a step of a first start (firststart.go)
}

// Journal is an open journal. Its methods are safe for concurrent use.
type Journal struct {
	dir      string
	terminal string
	clock    clockwork.Clock
	log      *slog.Logger
	readOnly bool
	opts     Options
	priv     ed25519.PrivateKey
	pub      ed25519.PublicKey
	// keyTrusted: the key was given in Options, not read from the journal's directory
	// (Report.Vouched).
	keyTrusted bool

	db *bolt.DB

	mu       sync.Mutex
	health   error  // nil, or a *CorruptError: the no-payout state
	repaired string // what Open repaired (torn last transaction), "" if nothing
	boot     uint64
	head     uint64
	headHash [32]byte
	last     Record
	cp       *Checkpoint // last checkpoint, nil before the first
	snapshot time.Time   // read-only open of a copy: when it was taken
	tmpDir   string      // the copy's directory, removed by Close
	marks    *headMarks  // the head markers, kept while open for writing and healthy
	reset    *Record     // the first record of the journal Reset made (a restart opens it)
	paid     *paidMem    // the paid index in memory (paidmem.go), open for writing only
}

// Open opens (or, unless read-only, creates) the journal in dir and verifies it from its
// last signed checkpoint. A journal that fails verification is still returned, in its
// no-payout state: Health reports why and Append fails with ErrReadOnly. A journal file
// that is missing or empty is created only when no evidence says this terminal had a
// journal (Decide); otherwise, and when the file is older than its head marker, the
// journal is returned refused: Health is a *MissingError, nothing is written, and only
// Reset starts a new journal. A first start is made so that a kill at any point starts
// again as a first start (firstStart). Open returns an
// error only when it cannot even look: bad options, a missing directory or key, another
// terminal's journal, a file held by another process (for writing; a read-only open of
// a journal in use works on a private copy of the file, see Snapshot).
func Open(dir string, o Options) (*Journal, error) {
	if err := checkTerminal(o.Terminal); err != nil && !(o.ReadOnly && o.Terminal == "") {
		return nil, fmt.Errorf("journal: open: %w", err)
	}
	j := &Journal{dir: dir, terminal: o.Terminal, clock: o.Clock, log: o.Logger, readOnly: o.ReadOnly, opts: o}
	if j.clock == nil {
		j.clock = clockwork.NewRealClock()
	}
	if j.log == nil {
		j.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	path := filepath.Join(dir, DBFile)
	if !o.ReadOnly {
		// Before anything is written (a device key made): is this a first start?
		me, fresh, err := refuseFresh(dir, path, o)
		if err != nil {
			return nil, err
		}
		if me != nil {
			j.refuse(me)
			return j, nil
		}
		if fresh {
			err = j.firstStart(path, o)
		} else if o.DeviceKey == nil {
			err = finishFirstStart(dir)
		}
		if err != nil {
			return nil, err
		}
	}
	if err := j.loadKeys(o); err != nil {
		return nil, err
	}
	err := j.open(path, o)
	if errors.Is(err, ErrInUse) && o.ReadOnly {
		j.log.Info("journal: in use, reading a copy", "path", path)
		err = j.openSnapshot(path, o)
	}
	if err != nil {
		return nil, err
	}
	if j.repaired != "" {
		j.log.Warn("journal: repaired on open", "repair", j.repaired)
	}
	j.log.Info("journal: open", "dir", dir, "terminal", j.terminal, "head", j.head, "boot", j.boot,
		"read_only", o.ReadOnly, "healthy", j.health == nil)
	return j, nil
}

// open opens the file at path (made by firstStart at a first start); a damaged file
// leaves j in the no-payout state, not an error.
func (j *Journal) open(path string, o Options) error {
	st, err := os.Stat(path)
	switch {
	case err != nil:
		return fmt.Errorf("journal: open: %w", err)
	case st.Size() == 0:
		return fmt.Errorf("journal: open: %s: empty", path)
	}
	note, err := precheckMeta(path)
	if err != nil {
		j.setCorrupt(err)
		return nil
	}
	j.repaired = note
	if err := j.openBolt(path, o); err != nil {
		if j.health != nil {
			return nil
		}
		return err
	}
	if err := guard("check file", func() error { return checkFile(j.db, path) }); err != nil {
		j.setCorrupt(err)
		return nil
	}
	// The file is verified before anything is written to it (a damaged journal is kept as
	// it was found).
	if err := guard("verify", j.verifyOpen); err != nil {
		var ce *CorruptError
		if !errors.As(err, &ce) {
			j.Close()
			return err
		}
		j.setCorrupt(err)
		return nil
	}
	if !o.ReadOnly {
		if me := j.checkNotOlder(o, j.repaired != ""); me != nil {
			j.Close() // nothing written: the file stays as it was found
			j.refuse(me)
			return nil
		}
		if err := o.cut("boot"); err != nil {
			j.Close()
			return err
		}
		if err := j.startOrFail(); err != nil || j.health != nil {
			return err
		}
		if err := j.dailyCheckpoint(); err != nil {
			j.log.Error("journal: daily checkpoint failed", "err", err)
		}
		if err := o.cut("head markers"); err != nil {
			j.Close()
			return err
		}
		j.marks = openMarks(markerPaths(j.dir, o), j.log)
		j.marks.write(j.headMark(), true)
		j.paid = newPaidMem(j.db)
	}
	return nil
}

func (j *Journal) openBolt(path string, o Options) error {
	// bbolt does not close its file when it panics on a damaged one: keep it, so that
	// the file (and its lock) is released then.
	var file *os.File
	timeout := lockTimeout
	if j.readOnly {
		timeout = roLockTimeout
	}
	if o.lockTimeout > 0 {
		timeout = o.lockTimeout
	}
	bo := &bolt.Options{Timeout: timeout, ReadOnly: j.readOnly, FreelistType: bolt.FreelistArrayType, PageSize: o.pageSize, MmapFlags: boltMmapFlags,
		OpenFile: func(name string, flag int, perm os.FileMode) (*os.File, error) {
			f, err := os.OpenFile(name, flag, perm)
			file = f
			return f, err
		}}
	if err := guard("open file", func() (err error) {
		j.db, err = bolt.Open(path, 0o600, bo)
		return err
	}); err != nil {
		if j.db == nil && file != nil {
			file.Close()
		}
		if errors.Is(err, berrors.ErrTimeout) {
			return fmt.Errorf("journal: open %s: %w", path, ErrInUse)
		}
		if errors.Is(err, ErrCorrupt) || isBoltFormatError(err) {
			j.setCorrupt(corrupt(0, "storage file does not open: %v", err))
			return err
		}
		return fmt.Errorf("journal: open %s: %w", path, err)
	}
	return nil
}

func isBoltFormatError(err error) bool {
	return errors.Is(err, berrors.ErrInvalid) || errors.Is(err, berrors.ErrVersionMismatch) ||
		errors.Is(err, berrors.ErrChecksum) || errors.Is(err, berrors.ErrInvalidMapping)
}

// startOrFail runs start; a damaged file leaves j in the no-payout state (nil error),
// any other failure closes j.
func (j *Journal) startOrFail() error {
	err := j.start()
	if err != nil && j.health == nil {
		var ce *CorruptError
		if errors.As(err, &ce) {
			j.setCorrupt(err)
			return nil
		}
		j.Close()
		return err
	}
	return nil
}

// start checks the terminal id and counts the boot.
func (j *Journal) start() error {
	return guard("start", func() error {
		return j.db.Update(func(tx *bolt.Tx) error {
			m := tx.Bucket(bMeta)
			if m == nil {
				return corrupt(0, "meta bucket missing")
			}
			if t := string(m.Get(kTerminal)); t != j.terminal {
				return fmt.Errorf("journal: open: the journal belongs to terminal %.64q, not %q", t, j.terminal)
			}
			boot := u64(m.Get(kBoot)) + 1
			if err := m.Put(kBoot, be64(boot)); err != nil {
				return err
			}
			j.boot = boot
			if n, err := ensureKindIndex(tx); err != nil || n > 0 {
				j.log.Info("journal: kind index made", "records", n, "err", err)
				if err != nil {
					return err
				}
			}
			if n, err := ensurePaidTimes(tx); err != nil || n > 0 { // paidindex.go
				j.log.Info("journal: paid index rewritten with the payouts' times", "payouts", n, "err", err)
				if err != nil {
					return err
				}
				return j.opts.cut("paid index rewritten") // tests: a kill before the commit
			}
			return nil
		})
	})
}

// initBuckets makes the buckets of a new journal and records its format and terminal.
func (j *Journal) initBuckets(tx *bolt.Tx) error {
	for _, name := range allBuckets {
		if _, err := tx.CreateBucketIfNotExists(name); err != nil {
			return fmt.Errorf("journal: create: %w", err)
		}
	}
	m := tx.Bucket(bMeta)
	if err := m.Put(kFormat, []byte{metaFormatWant}); err != nil {
		return err
	}
	return m.Put(kTerminal, []byte(j.terminal))
}

// Health is nil while the journal can prove what it recorded; otherwise an error wrapping
// ErrCorrupt with the reason (read-only, no payouts: "APPELEZ LE TECHNICIEN").
func (j *Journal) Health() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.health
}

// Repaired says what Open repaired ("" when nothing): with bbolt only an interrupted last
// transaction can be, by falling back to the previous meta page.
func (j *Journal) Repaired() string {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.repaired
}

// Terminal is the terminal id the journal belongs to.
func (j *Journal) Terminal() string { return j.terminal }

// Boot is this start's counter (0 for a read-only open).
func (j *Journal) Boot() uint64 { return j.boot }

// PublicKey is the device key that signs (or, read-only, checks) the checkpoints.
func (j *Journal) PublicKey() ed25519.PublicKey { return j.pub }

// setCorrupt enters the no-payout state (the first reason is kept).
func (j *Journal) setCorrupt(err error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.setCorruptLocked(err)
}

func (j *Journal) setCorruptLocked(err error) {
	if j.health != nil {
		return
	}
	var ce *CorruptError
	if !errors.As(err, &ce) {
		err = corrupt(0, "%v", err)
	}
	j.health = err
	j.log.Error("journal: no-payout state", "reason", err.Error())
}

// Head is the last record's sequence number and hash (0 and zero hash when empty).
func (j *Journal) Head() (seq uint64, hash [32]byte) {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.head, j.headHash
}

// Last is the last record (for a reprint); false when the journal is empty.
func (j *Journal) Last() (Record, bool) {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.last, j.head > 0
}

// Close closes the file.
func (j *Journal) Close() error {
	if j.tmpDir != "" {
		defer os.RemoveAll(j.tmpDir)
	}
	if j.marks != nil {
		j.mu.Lock()
		if j.health == nil {
			j.marks.write(j.headMark(), true)
		}
		j.marks.close()
		j.marks = nil
		j.mu.Unlock()
	}
	if j.db == nil {
		return nil
	}
	j.paid.close()
	err := j.db.Close()
	j.db = nil
	if err != nil {
		return fmt.Errorf("journal: close: %w", err)
	}
	return nil
}

// syncDir fsyncs directory dir (atomicfile's), so that the names made in it survive a crash.
func syncDir(dir string) error { return atomicfile.SyncDir(dir) }
