package ledger

import (
	"crypto/ed25519"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestReadersRefuseFIFOs: a FIFO given as a ledger, a key, a trust store entry or a status
// list is refused at once (ErrNotRegular), before anything is read: no reader hangs.
func TestReadersRefuseFIFOs(t *testing.T) {
	pub, _ := testKey(t)
	trust := NewTrustStore(pub)
	dir := t.TempDir()
	fifo := filepath.Join(dir, "x.pub") // a FIFO that a directory trust store would glob
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	readers := map[string]func() error{
		"OpenFile":          func() error { _, err := OpenFile(fifo, trust); return err },
		"ReadFile":          func() error { _, err := ReadFile(fifo, trust); return err },
		"VerifyFile":        func() error { _, err := VerifyFile(fifo, trust); return err },
		"InspectFile":       func() error { _, err := InspectFile(fifo, trust); return err },
		"Install":           func() error { _, err := Install(t.TempDir(), fifo, trust); return err },
		"LoadStatus":        func() error { _, err := LoadStatus(fifo, trust); return err },
		"InspectStatusFile": func() error { _, _, err := InspectStatusFile(fifo, trust); return err },
		"InstallStatus":     func() error { _, err := InstallStatus(t.TempDir(), fifo, trust, 1); return err },
		"LoadPublicKey":     func() error { _, err := LoadPublicKey(fifo); return err },
		"LoadPrivateKey":    func() error { _, err := LoadPrivateKey(fifo); return err },
		"LoadTrustStore":    func() error { _, err := LoadTrustStore(fifo); return err },
		"LoadTrustStoreDir": func() error { _, err := LoadTrustStore(dir); return err },
	}
	for name, read := range readers {
		done := make(chan error, 1)
		go func() { done <- read() }()
		select {
		case err := <-done:
			if !errors.Is(err, ErrNotRegular) {
				t.Errorf("%s of a FIFO: %v, want ErrNotRegular", name, err)
			}
		case <-time.After(20 * time.Second): // a guard only: a refusal is immediate
			t.Fatalf("%s of a FIFO hangs", name)
		}
	}
	// An installed "ledger" that is a FIFO fails the install instead of hanging it.
	b := newTestBlock(t, 42, 4, 1)
	_, priv := testKey(t)
	src := filepath.Join(t.TempDir(), "src")
	if err := Write(src, b.h, b.entries, priv); err != nil {
		t.Fatal(err)
	}
	term := t.TempDir()
	syscall.Mkfifo(filepath.Join(term, FileName(42)), 0o600)
	if _, err := Install(term, src, NewTrustStore(priv.Public().(ed25519.PublicKey))); !errors.Is(err, ErrNotRegular) {
		t.Errorf("install over a FIFO: %v", err)
	}
}

// TestTruncatedMappedLedger: a mapped ledger truncated under the reader gives ErrFault on
// lookup and entry reads; the process does not die of SIGBUS.
func TestTruncatedMappedLedger(t *testing.T) {
	pub, priv := testKey(t)
	b := newTestBlock(t, 42, 2000, 3) // 16,000 entries: 136,000 bytes, many pages
	path := filepath.Join(t.TempDir(), FileName(42))
	if err := Write(path, b.h, b.entries, priv); err != nil {
		t.Fatal(err)
	}
	l, err := OpenFile(path, NewTrustStore(pub))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	last := b.h.Entries() - 1
	if r, err := l.Lookup(b.code(last)); err != nil || r.Tier != b.tiers[last] {
		t.Fatalf("before truncation: %+v, %v", r, err)
	}
	if err := os.Truncate(path, 4096); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Lookup(b.code(last)); !errors.Is(err, ErrFault) {
		t.Fatalf("lookup in a truncated mapping: %v, want ErrFault", err)
	}
	if _, err := l.Entry(last); !errors.Is(err, ErrFault) {
		t.Fatalf("entry in a truncated mapping: %v, want ErrFault", err)
	}
	// The verification at open faults the same way on a file truncated under it; here the
	// truncated file is simply too short for its header.
	if _, err := OpenFile(path, NewTrustStore(pub)); !errors.Is(err, ErrFormat) {
		t.Fatalf("open of the truncated file: %v", err)
	}
}

// TestVerifyMappedFault: verifyEntries over a mapping whose pages are gone returns ErrFault.
func TestVerifyMappedFault(t *testing.T) {
	_, priv := testKey(t)
	b := newTestBlock(t, 42, 2000, 4)
	path := filepath.Join(t.TempDir(), FileName(42))
	if err := Write(path, b.h, b.entries, priv); err != nil {
		t.Fatal(err)
	}
	data, unmap, err := mapFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer unmap()
	fh, err := parseHeader(data)
	if err != nil {
		t.Fatal(err)
	}
	if err := fh.parseDefinition(); err != nil {
		t.Fatal(err)
	}
	os.Truncate(path, int64(fh.dataOff)+100)
	if err := verifyEntries(fh, data[fh.dataOff:], newSegments(fh)); !errors.Is(err, ErrFault) {
		t.Fatalf("verify of a truncated mapping: %v, want ErrFault", err)
	}
}
