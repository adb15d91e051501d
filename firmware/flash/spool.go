package flash

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/packterm/pos/internal/atomicfile"
)

// spoolMeta is ROOT/<kind>.meta: which transfer the .part file holds and how much of it
// is durable.
type spoolMeta struct {
	Kind   Kind   `json:"kind"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
	Offset int64  `json:"offset"`
}

// transfer is the item being received.
type transfer struct {
	b        begin
	path     string // the .part file
	meta     string
	f        *os.File
	off      int64 // bytes written
	synced   int64 // bytes durable (recorded in meta)
	headerOK bool  // firmware: header verified
	syncedAt time.Time
}

// openTransfer resumes the spooled transfer b if the spool holds one (returning how much
// is durable), or starts it afresh.
func openTransfer(dir string, b begin) (*transfer, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("flash: spool: %w", err)
	}
	t := &transfer{b: b, path: filepath.Join(dir, b.Kind.String()+".part"), meta: filepath.Join(dir, b.Kind.String()+".meta")}
	off := int64(0)
	if m, ok := readMeta(t.meta); ok && m.Kind == b.Kind && m.Size == b.Size && m.SHA256 == hex.EncodeToString(b.Sum[:]) && m.Offset >= 0 && m.Offset <= b.Size {
		off = m.Offset
	}
	f, err := os.OpenFile(t.path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("flash: spool: %w", err)
	}
	if st, err := f.Stat(); err != nil || st.Size() < off {
		off = 0 // the data behind the recorded offset is gone
	}
	if err := f.Truncate(off); err != nil {
		f.Close()
		return nil, fmt.Errorf("flash: spool: %w", err)
	}
	if _, err := f.Seek(off, io.SeekStart); err != nil {
		f.Close()
		return nil, fmt.Errorf("flash: spool: %w", err)
	}
	t.f, t.off, t.synced = f, off, off
	if off == 0 {
		if err := t.persist(); err != nil {
			f.Close()
			return nil, err
		}
	}
	return t, nil
}

func readMeta(path string) (spoolMeta, bool) {
	b, err := os.ReadFile(path)
	if err != nil || len(b) > 1024 {
		return spoolMeta{}, false
	}
	var m spoolMeta
	if json.Unmarshal(b, &m) != nil {
		return spoolMeta{}, false
	}
	return m, true
}

// persist fsyncs the data and records its length as the resume offset (write temporary,
// fsync, rename, fsync directory).
func (t *transfer) persist() error {
	if err := t.f.Sync(); err != nil {
		return fmt.Errorf("flash: spool: %w", err)
	}
	m, _ := json.Marshal(spoolMeta{Kind: t.b.Kind, Size: t.b.Size, SHA256: hex.EncodeToString(t.b.Sum[:]), Offset: t.off})
	if err := atomicfile.WriteFile(t.meta, m, 0o600); err != nil {
		return fmt.Errorf("flash: spool: %w", err)
	}
	t.synced = t.off
	return nil
}

// close persists what was received (for a later resume) and closes the file.
func (t *transfer) close() {
	if t.off != t.synced {
		_ = t.persist()
	}
	t.f.Close()
}

// discard closes and removes the spooled transfer.
func (t *transfer) discard() {
	t.f.Close()
	os.Remove(t.path)
	os.Remove(t.meta)
}
