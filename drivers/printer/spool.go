package printer

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// spoolMagic starts every spool file; the format is magic, id length (2 bytes BE), id,
// data length (4 bytes BE), CRC-32 (IEEE) of the data (4 bytes BE), data.
const spoolMagic = "PKSPOOL1"

const spoolExt = ".rcpt"

// maxSpoolData bounds one spooled receipt (a receipt with images is a few hundred KiB).
const maxSpoolData = 4 << 20

// Spooled is one receipt waiting in the spool.
type Spooled struct {
	Seq  uint64 // order of arrival
	ID   string
	Data []byte // ESC/POS bytes
}

// Spool is a directory of receipts waiting to print, oldest first.
type Spool struct {
	dir      string
	fs       FS
	headroom uint64
	mu       sync.Mutex
	stages   int             // stages made (names of the staged files)
	printed  map[uint64]bool // printed, their file not yet removed (a read-only spool)
}

// SpoolOptions tune a spool; the zero value is the real filesystem and DefaultHeadroom.
type SpoolOptions struct {
	FS FS // nil: OSFS
	// Headroom is the space that must be left on the spool's filesystem once receipts are
	// staged (0: DefaultHeadroom; negative: none), for the journal's record that follows
	// them there and the terminal's state file.
	Headroom int64
}

// DefaultHeadroom is the space a spool keeps free on its filesystem: what a journal
// transaction and the state file need (a few pages), many times over.
const DefaultHeadroom = 256 << 10

// OpenSpool creates dir if needed. Staged receipts a crash left (never committed) and
// temporary files are removed: whoever staged them stages them again if what they record
// was committed.
func OpenSpool(dir string, o ...SpoolOptions) (*Spool, error) {
	var opt SpoolOptions
	if len(o) > 0 {
		opt = o[0]
	}
	s := &Spool{dir: dir, fs: opt.FS, printed: map[uint64]bool{}}
	if s.fs == nil {
		s.fs = OSFS{}
	}
	switch {
	case opt.Headroom == 0:
		s.headroom = DefaultHeadroom
	case opt.Headroom > 0:
		s.headroom = uint64(opt.Headroom)
	}
	if err := s.fs.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("printer: spool: %w", err)
	}
	ents, err := s.fs.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("printer: spool: %w", err)
	}
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), stagePrefix) || strings.HasPrefix(e.Name(), tmpPrefix) {
			_ = s.fs.Remove(filepath.Join(dir, e.Name())) // a read-only spool keeps them: never listed
		}
	}
	return s, nil
}

const (
	stagePrefix = "stage-"
	tmpPrefix   = "tmp-"
)

// EncodeSpool is the on-disk form of a spooled receipt.
func EncodeSpool(id string, data []byte) []byte {
	b := make([]byte, 0, len(spoolMagic)+10+len(id)+len(data))
	b = append(b, spoolMagic...)
	b = binary.BigEndian.AppendUint16(b, uint16(len(id)))
	b = append(b, id...)
	b = binary.BigEndian.AppendUint32(b, uint32(len(data)))
	b = binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(data))
	return append(b, data...)
}

// DecodeSpool parses a spool file; any damage is an error.
func DecodeSpool(b []byte) (id string, data []byte, err error) {
	if len(b) < len(spoolMagic)+2 || string(b[:len(spoolMagic)]) != spoolMagic {
		return "", nil, errors.New("printer: spool file: bad magic")
	}
	b = b[len(spoolMagic):]
	n := int(binary.BigEndian.Uint16(b))
	b = b[2:]
	if len(b) < n+8 {
		return "", nil, errors.New("printer: spool file: truncated header")
	}
	id, b = string(b[:n]), b[n:]
	size, sum := binary.BigEndian.Uint32(b), binary.BigEndian.Uint32(b[4:])
	b = b[8:]
	if size > maxSpoolData || uint32(len(b)) != size {
		return "", nil, fmt.Errorf("printer: spool file: data length %d, have %d", size, len(b))
	}
	if crc32.ChecksumIEEE(b) != sum {
		return "", nil, errors.New("printer: spool file: checksum mismatch")
	}
	return id, append([]byte(nil), b...), nil
}

func (s *Spool) seqs() ([]uint64, error) {
	ents, err := s.fs.ReadDir(s.dir)
	if err != nil {
		return nil, fmt.Errorf("printer: spool: %w: %w", ErrSpool, err)
	}
	var out []uint64
	for _, e := range ents {
		name, ok := strings.CutSuffix(e.Name(), spoolExt)
		if !ok {
			continue
		}
		if n, err := strconv.ParseUint(name, 10, 64); err == nil {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out, nil
}

func (s *Spool) path(seq uint64) string {
	return filepath.Join(s.dir, fmt.Sprintf("%020d%s", seq, spoolExt))
}

// storeErr is a storage failure of the spool: ErrSpool and its cause.
func storeErr(what string, err error) error {
	return fmt.Errorf("printer: spool: %s: %w: %w", what, ErrSpool, err)
}

// Put stores a receipt durably (temporary file, fsync, rename, fsync of the directory).
// A failure wraps ErrSpool.
func (s *Spool) Put(id string, data []byte) (uint64, error) {
	st, err := s.Stage([]Staging{{ID: id, Data: data}})
	if err != nil {
		return 0, err
	}
	seqs, err := st.Commit()
	if err != nil {
		return 0, err
	}
	return seqs[0], nil
}

// Staging is one receipt to stage: its id and ESC/POS bytes.
type Staging struct {
	ID   string
	Data []byte
}

// Staged receipts are written to the spool, durable, but not yet waiting to print:
// Commit puts them in the queue, Discard removes them. The space they take is held:
// committing them writes no data, it only renames files.
type Staged struct {
	s     *Spool
	files []string
	ids   []string
	done  bool
}

// Stage writes receipts to the spool under names that are not listed (fsync of each file
// and of the directory), then checks that the headroom is left on the filesystem: a full
// or read-only spool fails here, wrapping ErrSpool (ErrSpoolFull when the space left is
// below the headroom), with nothing left behind. A crash before Commit leaves them to be
// removed at the next OpenSpool, so they never print.
func (s *Spool) Stage(rs []Staging) (*Staged, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stages++
	st := &Staged{s: s}
	for i, r := range rs {
		name := filepath.Join(s.dir, fmt.Sprintf("%s%d-%d-%d", stagePrefix, os.Getpid(), s.stages, i))
		if err := s.fs.WriteFile(name, EncodeSpool(r.ID, r.Data)); err != nil {
			st.discard()
			return nil, storeErr("stage "+r.ID, err)
		}
		st.files, st.ids = append(st.files, name), append(st.ids, r.ID)
	}
	if err := s.fs.SyncDir(s.dir); err != nil {
		st.discard()
		return nil, storeErr("fsync dir", err)
	}
	if s.headroom > 0 {
		avail, err := s.fs.Avail(s.dir)
		if err != nil {
			st.discard()
			return nil, storeErr("space left", err)
		}
		if avail < s.headroom {
			st.discard()
			return nil, fmt.Errorf("printer: spool: %d bytes left, %d kept free: %w", avail, s.headroom, ErrSpoolFull)
		}
	}
	return st, nil
}

// Check stages an empty receipt and discards it: nil once the spool can keep receipts
// again (space, permissions).
func (s *Spool) Check() error {
	st, err := s.Stage([]Staging{{ID: "check"}})
	if err != nil {
		return err
	}
	st.Discard()
	return nil
}

// IDs are the staged receipts' ids.
func (st *Staged) IDs() []string { return append([]string(nil), st.ids...) }

// Commit puts the staged receipts in the queue, in order, and returns their places. A
// failure wraps ErrSpool; those not committed stay staged (Commit again, or Discard).
func (st *Staged) Commit() ([]uint64, error) {
	s := st.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if st.done {
		return nil, errors.New("printer: spool: staged receipts already committed or discarded")
	}
	seqs, err := s.seqs()
	if err != nil {
		return nil, err
	}
	next := uint64(1)
	if len(seqs) > 0 {
		next = seqs[len(seqs)-1] + 1
	}
	var out []uint64
	for len(st.files) > 0 {
		if err := s.fs.Rename(st.files[0], s.path(next)); err != nil {
			return nil, storeErr("commit "+st.ids[0], err)
		}
		out = append(out, next)
		st.files, st.ids, next = st.files[1:], st.ids[1:], next+1
	}
	if err := s.fs.SyncDir(s.dir); err != nil {
		return nil, storeErr("fsync dir", err)
	}
	st.done = true
	return out, nil
}

// Discard removes the staged receipts not committed.
func (st *Staged) Discard() {
	st.s.mu.Lock()
	defer st.s.mu.Unlock()
	st.discard()
}

func (st *Staged) discard() {
	for _, f := range st.files {
		_ = st.s.fs.Remove(f) // left behind: removed at the next open, never listed
	}
	st.files, st.ids, st.done = nil, nil, true
}

// List returns the waiting receipts, oldest first. A damaged file is renamed to *.bad and
// reported in the error (the others are still returned).
func (s *Spool) List() ([]Spooled, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	seqs, err := s.seqs()
	if err != nil {
		return nil, err
	}
	var out []Spooled
	var errs []error
	for _, seq := range seqs {
		if s.printed[seq] {
			continue
		}
		b, err := s.fs.ReadFile(s.path(seq))
		if err != nil {
			errs = append(errs, fmt.Errorf("printer: spool: %w", err))
			continue
		}
		id, data, err := DecodeSpool(b)
		if err != nil {
			_ = s.fs.Rename(s.path(seq), s.path(seq)+".bad")
			errs = append(errs, fmt.Errorf("%s: %w", s.path(seq), err))
			continue
		}
		out = append(out, Spooled{Seq: seq, ID: id, Data: data})
	}
	return out, errors.Join(errs...)
}

// Remove deletes a printed receipt. When its file cannot be removed (a read-only spool),
// it is remembered as printed (never listed again by this process) and the error wraps
// ErrSpool.
func (s *Spool) Remove(seq uint64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.printed[seq] = true
	for q := range s.printed {
		if err := s.fs.Remove(s.path(q)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			if q == seq {
				return storeErr("remove", err)
			}
			continue
		}
		delete(s.printed, q)
	}
	if err := s.fs.SyncDir(s.dir); err != nil {
		return storeErr("fsync dir", err)
	}
	return nil
}
