package printer

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
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
	dir string
	mu  sync.Mutex
}

// OpenSpool creates dir if needed.
func OpenSpool(dir string) (*Spool, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("printer: spool: %w", err)
	}
	return &Spool{dir: dir}, nil
}

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
	ents, err := os.ReadDir(s.dir)
	if err != nil {
		return nil, fmt.Errorf("printer: spool: %w", err)
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

// Put stores a receipt durably (temporary file, fsync, rename, fsync of the directory).
func (s *Spool) Put(id string, data []byte) (uint64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	seqs, err := s.seqs()
	if err != nil {
		return 0, err
	}
	seq := uint64(1)
	if len(seqs) > 0 {
		seq = seqs[len(seqs)-1] + 1
	}
	f, err := os.CreateTemp(s.dir, "tmp-*")
	if err != nil {
		return 0, fmt.Errorf("printer: spool: %w", err)
	}
	defer os.Remove(f.Name()) // no-op after the rename
	if _, err := f.Write(EncodeSpool(id, data)); err != nil {
		f.Close()
		return 0, fmt.Errorf("printer: spool: write: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return 0, fmt.Errorf("printer: spool: fsync: %w", err)
	}
	if err := f.Close(); err != nil {
		return 0, fmt.Errorf("printer: spool: %w", err)
	}
	if err := os.Rename(f.Name(), s.path(seq)); err != nil {
		return 0, fmt.Errorf("printer: spool: %w", err)
	}
	if err := syncDir(s.dir); err != nil {
		return 0, err
	}
	return seq, nil
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("printer: spool: %w", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("printer: spool: fsync dir: %w", err)
	}
	return nil
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
		b, err := os.ReadFile(s.path(seq))
		if err != nil {
			errs = append(errs, fmt.Errorf("printer: spool: %w", err))
			continue
		}
		id, data, err := DecodeSpool(b)
		if err != nil {
			_ = os.Rename(s.path(seq), s.path(seq)+".bad")
			errs = append(errs, fmt.Errorf("%s: %w", s.path(seq), err))
			continue
		}
		out = append(out, Spooled{Seq: seq, ID: id, Data: data})
	}
	return out, errors.Join(errs...)
}

// Remove deletes a printed receipt.
func (s *Spool) Remove(seq uint64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := os.Remove(s.path(seq)); err != nil {
		return fmt.Errorf("printer: spool: %w", err)
	}
	return syncDir(s.dir)
}
