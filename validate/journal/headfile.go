package journal

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// HeadFile is the head marker kept beside the journal file (docs/journal.md, "A journal
// is never silently replaced"). Options.HeadCopies names more copies, outside DIR.
const HeadFile = "journal.head"

// headMagic starts every head marker.
const headMagic = "packterm-journal-head-v1"

// maxHeadLen bounds a head marker file (the line is at most 24+1+64+1+20+1+64+1+16+1+20+1
// = 214 bytes).
const maxHeadLen = 256

// Head is what a head marker says: terminal Terminal's journal had record Seq, with hash
// Hash, as its head at Time, its checkpoints signed by the device key whose id is Key.
type Head struct {
	Terminal string
	Seq      uint64
	Hash     [32]byte
	Key      [8]byte
	Time     time.Time
}

// Marshal is the marker's one line of text, canonical: every field but the terminal id
// has a fixed width, so rewriting it in place keeps its length.
func (h Head) Marshal() []byte {
	return fmt.Appendf(nil, "%s %s %020d %x %x %020d\n", headMagic, h.Terminal, h.Seq, h.Hash[:], h.Key[:], max(h.Time.UnixNano(), 0))
}

// ParseHead reads a head marker. Anything but the canonical form of Marshal is an
// ErrFormat error.
func ParseHead(b []byte) (Head, error) {
	var h Head
	bad := func(what string) (Head, error) {
		return Head{}, fmt.Errorf("journal: head marker: %s: %w", what, ErrFormat)
	}
	if len(b) > maxHeadLen {
		return bad("too long")
	}
	line, ok := bytes.CutSuffix(b, []byte("\n"))
	if !ok {
		return bad("no end of line")
	}
	f := bytes.Split(line, []byte(" "))
	if len(f) != 6 || string(f[0]) != headMagic {
		return bad("not a head marker")
	}
	h.Terminal = string(f[1])
	if checkTerminal(h.Terminal) != nil {
		return bad("terminal id")
	}
	seq, err1 := fixedDigits(f[2])
	nanos, err2 := fixedDigits(f[5])
	if err1 != nil || err2 != nil || nanos > 1<<63-1 {
		return bad("number")
	}
	if !lowerHex(f[3], 32) || !lowerHex(f[4], 8) {
		return bad("hash or key id")
	}
	hex.Decode(h.Hash[:], f[3])
	hex.Decode(h.Key[:], f[4])
	h.Seq, h.Time = seq, time.Unix(0, int64(nanos)).UTC()
	return h, nil
}

// fixedDigits reads exactly 20 decimal digits.
func fixedDigits(b []byte) (uint64, error) {
	if len(b) != 20 {
		return 0, ErrFormat
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, ErrFormat
		}
	}
	return strconv.ParseUint(string(b), 10, 64)
}

func lowerHex(b []byte, n int) bool {
	if len(b) != 2*n {
		return false
	}
	for _, c := range b {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// keyID is the device key id a head marker names (the first 8 bytes of SHA-256 of the
// public key, as ledger key ids).
func keyID(pub ed25519.PublicKey) [8]byte {
	var id [8]byte
	if len(pub) == ed25519.PublicKeySize {
		s := sha256.Sum256(pub)
		copy(id[:], s[:8])
	}
	return id
}

// headMarks keeps the head marker files of a journal open for writing for a journal
// opened for writing. Each append rewrites them in place without fsync (a page-cache
// write: the marker is for a journal removed while the system runs, and an append must
// not wait for a second disk); open, each checkpoint made by an append and Close fsync
// them. A marker that cannot be written is logged, never an append's failure: the
// journal itself is the record.
type headMarks struct {
	files  []*os.File
	sizes  []int
	log    *slog.Logger
	failed bool // logged once
}

// openMarks opens (creating when missing) every marker file.
func openMarks(paths []string, log *slog.Logger) *headMarks {
	m := &headMarks{log: log}
	for _, p := range paths {
		_, statErr := os.Stat(p)
		f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			log.Warn("journal: head marker not kept", "path", p, "err", err)
			continue
		}
		if errors.Is(statErr, fs.ErrNotExist) {
			if err := syncDir(filepath.Dir(p)); err != nil {
				log.Warn("journal: head marker: directory sync", "path", p, "err", err)
			}
		}
		m.files, m.sizes = append(m.files, f), append(m.sizes, -1)
	}
	return m
}

// write rewrites every marker with h, fsynced when sync is set.
func (m *headMarks) write(h Head, sync bool) {
	if m == nil {
		return
	}
	b := h.Marshal()
	for i, f := range m.files {
		_, err := f.WriteAt(b, 0)
		if err == nil && m.sizes[i] != len(b) {
			err = f.Truncate(int64(len(b)))
			m.sizes[i] = len(b)
		}
		if err == nil && sync {
			err = f.Sync()
		}
		if err != nil && !m.failed {
			m.failed = true
			m.log.Warn("journal: head marker not written", "path", f.Name(), "err", err)
		}
	}
}

func (m *headMarks) close() {
	if m == nil {
		return
	}
	for _, f := range m.files {
		f.Close()
	}
	m.files = nil
}

// markerPaths are DIR/journal.head and the caller's copies.
func markerPaths(dir string, o Options) []string {
	return append([]string{filepath.Join(dir, HeadFile)}, o.HeadCopies...)
}
