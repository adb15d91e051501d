package ledger

import (
	"bytes"
	"crypto/ed25519"
	"encoding/binary"
	"errors"
	mrand "math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/packterm/pos/internal/installlock"
	"github.com/packterm/pos/validate/codes"
)

// smallChunk makes test blocks span several hash-tree chunks.
const smallChunk = 256

func marshalTest(t testing.TB, b *testBlock, priv ed25519.PrivateKey) []byte {
	t.Helper()
	data, err := marshalChunked(b.h, b.entries, priv, smallChunk)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestRoundTrip(t *testing.T) {
	pub, priv := testKey(t)
	b := newTestBlock(t, 42, 300, 1)
	path := filepath.Join(t.TempDir(), FileName(42))
	if err := Write(path, b.h, b.entries, priv); err != nil {
		t.Fatal(err)
	}
	for _, chunk := range []int{DefaultChunkEntries, smallChunk} {
		var l *Ledger
		var err error
		if chunk == DefaultChunkEntries {
			l, err = OpenFile(path, NewTrustStore(pub))
		} else {
			l, err = Parse(marshalTest(t, b, priv), NewTrustStore(pub))
		}
		if err != nil {
			t.Fatal(err)
		}
		h := l.Header()
		if h.Block != 42 || h.Version != 1 || h.Packs != 300 || h.Entries() != 2400 || l.KeyID() != IDOf(pub) {
			t.Fatalf("header %+v, key %v", h, l.KeyID())
		}
		winners := 0
		for i := range h.Entries() {
			r, err := l.Lookup(b.code(i))
			if err != nil {
				t.Fatalf("ticket %d: %v", i, err)
			}
			if r.Ticket != b.id(i) || r.Tier != b.tiers[i] || r.Game.Number != int(b.id(i).Position) {
				t.Fatalf("ticket %d: %+v, want tier %d", i, r, b.tiers[i])
			}
			if r.Winner() {
				winners++
				if want := h.Definition.Games[i%8].Tiers[b.tiers[i]-1].Amount; r.Lot != want {
					t.Fatalf("ticket %d: lot %v, want %v", i, r.Lot, want)
				}
			} else if r.Lot != 0 {
				t.Fatalf("losing ticket %d with lot %v", i, r.Lot)
			}
			if e, _ := l.Entry(i); e != b.entries.At(i) {
				t.Fatalf("Entry(%d) = %#x, built %#x", i, e, b.entries.At(i))
			}
		}
		if winners == 0 || winners == h.Entries() {
			t.Fatalf("%d winners: the test block is degenerate", winners)
		}
		if err := l.Close(); err != nil {
			t.Fatal(err)
		}
		if _, err := l.Lookup(b.code(0)); !errors.Is(err, ErrClosed) {
			t.Fatalf("lookup after close: %v", err)
		}
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := int64(PackedSize(2400)); st.Size() < want || st.Size() > want+20000 {
		t.Fatalf("file of %d bytes for %d bytes of entries", st.Size(), want)
	}
	if m, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".*tmp*")); len(m) != 0 {
		t.Fatalf("temporary files left: %v", m)
	}
}

func TestWriteIsDeterministic(t *testing.T) {
	_, priv := testKey(t)
	b := newTestBlock(t, 5, 20, 9)
	a1, err := Marshal(b.h, b.entries, priv)
	if err != nil {
		t.Fatal(err)
	}
	a2, _ := Marshal(b.h, b.entries, priv)
	if !bytes.Equal(a1, a2) {
		t.Fatal("same inputs, different files")
	}
	path := filepath.Join(t.TempDir(), "l")
	if err := Write(path, b.h, b.entries, priv); err != nil {
		t.Fatal(err)
	}
	if f, _ := os.ReadFile(path); !bytes.Equal(f, a1) {
		t.Fatal("Write and Marshal differ")
	}
}

func TestWriteRefusesBadInput(t *testing.T) {
	_, priv := testKey(t)
	b := newTestBlock(t, 5, 4, 9)
	bad := []struct {
		name string
		h    Header
		e    *Entries
		key  ed25519.PrivateKey
	}{
		{"block 0", Header{Block: 0, Version: 1, Packs: 4, Definition: b.h.Definition}, b.entries, priv},
		{"no packs", Header{Block: 5, Version: 1, Packs: 0, Definition: b.h.Definition}, NewEntries(0), priv},
		{"no definition", Header{Block: 5, Version: 1, Packs: 4}, b.entries, priv},
		{"entry count", Header{Block: 5, Version: 1, Packs: 5, Definition: b.h.Definition}, b.entries, priv},
		{"no key", b.h, b.entries, nil},
	}
	for _, c := range bad {
		if _, err := Marshal(c.h, c.e, c.key); err == nil {
			t.Errorf("%s: accepted", c.name)
		}
	}
}

func TestLookupErrors(t *testing.T) {
	pub, priv := testKey(t)
	b := newTestBlock(t, 42, 50, 2)
	l, err := Parse(marshalTest(t, b, priv), NewTrustStore(pub))
	if err != nil {
		t.Fatal(err)
	}
	c := b.code(17)
	other := c
	other.Block = 43
	if _, err := l.Lookup(other); !errors.Is(err, ErrUnknownBlock) {
		t.Errorf("other block: %v", err)
	}
	out := c
	out.Pack = 50
	if _, err := l.Lookup(out); !errors.Is(err, ErrOutOfRange) {
		t.Errorf("pack past the ledger: %v", err)
	}
	out.Pack, out.Position = 3, 0
	if _, err := l.Lookup(out); !errors.Is(err, ErrOutOfRange) {
		t.Errorf("position 0: %v", err)
	}
	forged := c
	forged.Secret[9] ^= 0x40
	_, err = l.Lookup(forged)
	if !errors.Is(err, ErrForged) {
		t.Errorf("wrong secret: %v", err)
	}
	// The error must not carry the code or its secret.
	if text, _ := forged.MarshalText(); bytes.Contains([]byte(err.Error()), text) {
		t.Errorf("error quotes the code: %v", err)
	}
	if _, err := l.Entry(400); !errors.Is(err, ErrOutOfRange) {
		t.Errorf("Entry(400) of 400: %v", err)
	}
}

// TestForgedCodesRejected counts false accepts of random secrets and of mutated valid
// codes: a wrong secret passes with probability 2^-64 × (tiers+1)/16 at most, so over a
// million tries the expected count is below 10^-13; a single one is a broken seal.
func TestForgedCodesRejected(t *testing.T) {
	pub, priv := testKey(t)
	b := newTestBlock(t, 42, 200, 3)
	l, err := Parse(marshalTest(t, b, priv), NewTrustStore(pub))
	if err != nil {
		t.Fatal(err)
	}
	tries := 1_000_000
	if testing.Short() || raceEnabled {
		tries = 100_000 // the full million runs in the plain (non-race, non-short) test
	}
	r := mrand.New(mrand.NewPCG(5, 6))
	accepts := 0
	n := b.h.Entries()
	for k := range tries {
		i := r.IntN(n)
		c := b.code(i)
		if k%2 == 0 {
			binary.LittleEndian.PutUint64(c.Secret[:], r.Uint64()) // random secret
			binary.LittleEndian.PutUint16(c.Secret[8:], uint16(r.Uint32()))
		} else {
			c.Secret[r.IntN(codes.SecretSize)] ^= byte(1 + r.IntN(255)) // mutated byte
		}
		if _, err := l.Lookup(c); err == nil {
			accepts++
		} else if !errors.Is(err, ErrForged) {
			t.Fatalf("forged code: %v, want ErrForged", err)
		}
	}
	t.Logf("%d false accepts in %d tries", accepts, tries)
	if accepts > 0 {
		t.Fatalf("%d false accepts in %d tries", accepts, tries)
	}
	// Every other ticket's secret, and a valid code moved to another ticket, are forged.
	for i := range n {
		c := b.code(i)
		c.Secret = b.secrets[(i+1)%n]
		if _, err := l.Lookup(c); err == nil {
			accepts++
		}
		m := b.code(i)
		m.Pack = uint32((int(m.Pack) + 1) % int(b.h.Packs))
		if _, err := l.Lookup(m); err == nil {
			accepts++
		}
	}
	if accepts > 0 {
		t.Fatalf("%d false accepts", accepts)
	}
}

func TestTamperHeaderDetected(t *testing.T) {
	pub, priv := testKey(t)
	b := newTestBlock(t, 42, 40, 4)
	data := marshalTest(t, b, priv)
	fh, err := parseHeader(data)
	if err != nil {
		t.Fatal(err)
	}
	trust := NewTrustStore(pub)
	// Every byte of the signed header and of the signature, two different flips each;
	// with -short (qemu) or -race, one flip, and one byte in 16 of the definition JSON.
	for off := 0; off < fh.dataOff; off++ {
		flips := []byte{0x01, 0x80}
		if testing.Short() || raceEnabled {
			if off >= fixedHeaderSize && off < fixedHeaderSize+len(fh.definition) && off%16 != 0 {
				continue
			}
			flips = flips[:1]
		}
		for _, flip := range flips {
			d := bytes.Clone(data)
			d[off] ^= flip
			if _, err := Parse(d, trust); err == nil {
				t.Fatalf("byte %d ^ %#x of the header accepted", off, flip)
			}
		}
	}
}

func TestTamperEntriesDetected(t *testing.T) {
	pub, priv := testKey(t)
	b := newTestBlock(t, 42, 100, 5)
	data := marshalTest(t, b, priv)
	fh, _ := parseHeader(data)
	trust := NewTrustStore(pub)
	r := mrand.New(mrand.NewPCG(7, 8))
	samples := []int{fh.dataOff, len(data) - 1}
	for range 300 {
		samples = append(samples, fh.dataOff+r.IntN(len(data)-fh.dataOff))
	}
	for _, off := range samples {
		d := bytes.Clone(data)
		d[off] ^= byte(1 + r.IntN(255))
		if _, err := Parse(d, trust); !errors.Is(err, ErrHash) {
			t.Fatalf("entry byte %d flipped: %v, want ErrHash", off, err)
		}
	}
	// The streaming reader (files from the command line) finds the same.
	d := bytes.Clone(data)
	d[len(d)-20] ^= 0x01
	p := filepath.Join(t.TempDir(), "l")
	os.WriteFile(p, d, 0o644)
	if _, err := VerifyFile(p, trust); !errors.Is(err, ErrHash) {
		t.Fatalf("VerifyFile of a flipped entry: %v", err)
	}
	if in, err := InspectFile(p, trust); err != nil || !errors.Is(in.Hashes, ErrHash) || in.Signature != nil {
		t.Fatalf("InspectFile of a flipped entry: %+v, %v", in, err)
	}
	// Truncated and padded files are malformed.
	for _, d := range [][]byte{data[:len(data)-1], append(bytes.Clone(data), 0)} {
		if _, err := Parse(d, trust); !errors.Is(err, ErrFormat) {
			t.Fatalf("%d bytes for %d: %v, want ErrFormat", len(d), len(data), err)
		}
		os.WriteFile(p, d, 0o644)
		if _, err := VerifyFile(p, trust); !errors.Is(err, ErrFormat) {
			t.Fatalf("VerifyFile, %d bytes for %d: %v, want ErrFormat", len(d), len(data), err)
		}
	}
}

func TestTrust(t *testing.T) {
	pub, priv := testKey(t)
	other, _ := testKey(t)
	b := newTestBlock(t, 42, 10, 6)
	data := marshalTest(t, b, priv)
	if _, err := Parse(data, NewTrustStore()); !errors.Is(err, ErrNoTrustedKey) {
		t.Errorf("empty trust store: %v", err)
	}
	if _, err := Parse(data, nil); !errors.Is(err, ErrNoTrustedKey) {
		t.Errorf("nil trust store: %v", err)
	}
	if _, err := Parse(data, NewTrustStore(other)); !errors.Is(err, ErrUntrustedKey) {
		t.Errorf("other key: %v", err)
	}
	if _, err := Parse(data, NewTrustStore(other, pub)); err != nil {
		t.Errorf("two keys, one the signer's: %v", err)
	}
	// A signature by an untrusted key that claims the trusted key's id.
	_, otherPriv := testKey(t)
	d := bytes.Clone(data)
	fh, _ := parseHeader(d)
	copy(d[len(fh.signed):], ed25519.Sign(otherPriv, fh.signed))
	if _, err := Parse(d, NewTrustStore(pub)); !errors.Is(err, ErrBadSignature) {
		t.Errorf("signature by another key under the trusted id: %v", err)
	}
}

func TestUnknownFormatVersion(t *testing.T) {
	pub, priv := testKey(t)
	b := newTestBlock(t, 42, 10, 7)
	data := marshalTest(t, b, priv)
	for _, v := range []uint16{0, 1, 3, 0xffff} {
		d := bytes.Clone(data)
		binary.BigEndian.PutUint16(d[8:], v)
		// Re-sign, as an operator with a newer generator would: still refused.
		fh := len(d) - PackedSize(b.h.Entries()) - signatureSize
		copy(d[fh:], ed25519.Sign(priv, d[:fh]))
		_, err := Parse(d, NewTrustStore(pub))
		if !errors.Is(err, ErrFormatVersion) {
			t.Errorf("format version %d: %v, want ErrFormatVersion", v, err)
		}
		if v == 1 && (!errors.Is(err, ErrFormat1) || !strings.Contains(err.Error(), "regenerated")) {
			t.Errorf("format version 1: %v, want ErrFormat1 saying the block must be regenerated", err)
		}
		if v != 1 && errors.Is(err, ErrFormat1) {
			t.Errorf("format version %d reported as format 1: %v", v, err)
		}
		// Every reader refuses it the same way.
		if _, err := Inspect(d, NewTrustStore(pub)); !errors.Is(err, ErrFormatVersion) {
			t.Errorf("inspect format version %d: %v", v, err)
		}
		p := filepath.Join(t.TempDir(), "l")
		os.WriteFile(p, d, 0o644)
		for name, read := range map[string]func() error{
			"OpenFile":   func() error { _, err := OpenFile(p, NewTrustStore(pub)); return err },
			"ReadFile":   func() error { _, err := ReadFile(p, NewTrustStore(pub)); return err },
			"VerifyFile": func() error { _, err := VerifyFile(p, NewTrustStore(pub)); return err },
			"Install":    func() error { _, err := Install(t.TempDir(), p, NewTrustStore(pub)); return err },
		} {
			if err := read(); !errors.Is(err, ErrFormatVersion) || (v == 1) != errors.Is(err, ErrFormat1) {
				t.Errorf("%s, format version %d: %v", name, v, err)
			}
		}
	}
	if _, err := Parse([]byte("PTLEDGEX\x00\x01"), NewTrustStore(pub)); !errors.Is(err, ErrFormat) {
		t.Errorf("bad magic: %v", err)
	}
}

func TestInstall(t *testing.T) {
	pub, priv := testKey(t)
	_, otherPriv := testKey(t)
	trust := NewTrustStore(pub)
	src, dir := t.TempDir(), t.TempDir()
	b := newTestBlock(t, 42, 30, 8)
	write := func(version uint64, key ed25519.PrivateKey) string {
		h := b.h
		h.Version = version
		p := filepath.Join(src, "v"+string(rune('0'+version))+".ledger")
		if err := Write(p, h, b.entries, key); err != nil {
			t.Fatal(err)
		}
		return p
	}
	installed := filepath.Join(dir, FileName(42))
	installedVersion := func() uint64 {
		l, err := OpenFile(installed, trust)
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		return l.Header().Version
	}
	res, err := Install(dir, write(2, priv), trust)
	if err != nil || res.HadPrevious || res.Version != 2 || res.Path != installed {
		t.Fatalf("first install: %+v, %v", res, err)
	}
	if _, err := Install(dir, write(1, priv), trust); !errors.Is(err, ErrOlderVersion) {
		t.Fatalf("older version: %v", err)
	}
	if v := installedVersion(); v != 2 {
		t.Fatalf("installed version %d after a refused install", v)
	}
	if res, err := Install(dir, write(2, priv), trust); err != nil || res.Previous != 2 {
		t.Fatalf("same version: %+v, %v", res, err)
	}
	if res, err := Install(dir, write(3, priv), trust); err != nil || res.Previous != 2 || res.Version != 3 {
		t.Fatalf("newer version: %+v, %v", res, err)
	}
	if _, err := Install(dir, write(4, otherPriv), trust); !errors.Is(err, ErrUntrustedKey) {
		t.Fatalf("untrusted signer: %v", err)
	}
	if _, err := Install(dir, write(5, priv), NewTrustStore()); !errors.Is(err, ErrNoTrustedKey) {
		t.Fatalf("no trusted key: %v", err)
	}
	// A tampered newer file is refused.
	p := write(6, priv)
	d, _ := os.ReadFile(p)
	d[len(d)-3] ^= 1
	os.WriteFile(p, d, 0o644)
	if _, err := Install(dir, p, trust); !errors.Is(err, ErrHash) {
		t.Fatalf("tampered file: %v", err)
	}
	if v := installedVersion(); v != 3 {
		t.Fatalf("installed version %d, want 3 to stay", v)
	}
	// A damaged installed ledger still sets the floor.
	d, _ = os.ReadFile(installed)
	d[len(d)-1] ^= 1
	os.WriteFile(installed, d, 0o644)
	if _, err := Install(dir, write(2, priv), trust); !errors.Is(err, ErrOlderVersion) {
		t.Fatalf("rollback over a damaged ledger: %v", err)
	}
	if _, err := Install(dir, write(3, priv), trust); err != nil {
		t.Fatalf("repair with the same version: %v", err)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, ".*")); len(m) != 1 || filepath.Base(m[0]) != installlock.FileName {
		t.Fatalf("temporary files left (only the install lock stays): %v", m)
	}
}
