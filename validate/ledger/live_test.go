package ledger

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/packterm/pos/validate/game"
)

// The retailer is root on the terminal: the installed ledger's file is theirs to write.
// These tests rewrite it in place (same inode, so the reader's MAP_SHARED mapping sees the
// new bytes at once) while a Ledger has it open, as a retailer with a scratched losing
// ticket would to make it pay.

// liveLedger writes b (chunks of chunk entries) to a file and opens it mapped.
func liveLedger(t *testing.T, b *testBlock, chunk int) (path string, l *Ledger, fh *fileHeader, trust *TrustStore) {
	t.Helper()
	pub, priv := testKey(t)
	data, err := marshalChunked(b.h, b.entries, priv, chunk)
	if err != nil {
		t.Fatal(err)
	}
	if fh, err = parseHeader(data); err != nil {
		t.Fatal(err)
	}
	if err := fh.parseDefinition(); err != nil {
		t.Fatal(err)
	}
	path = filepath.Join(t.TempDir(), FileName(b.h.Block))
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	trust = NewTrustStore(pub)
	if l, err = OpenFile(path, trust); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return path, l, fh, trust
}

// writeAt rewrites bytes of the file in place, as `dd conv=notrunc` would.
func writeAt(t *testing.T, path string, off int, b []byte) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteAt(b, int64(off)); err != nil {
		t.Fatal(err)
	}
}

// forgeEntry rewrites entry i of the file so that its own code opens to tier, and returns
// the pair's new bytes and its offset.
func forgeEntry(t *testing.T, path string, fh *fileHeader, b *testBlock, i int, tier uint8) ([]byte, int) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	off := fh.dataOff + i/2*PairSize
	pair := bytes.Clone(data[off : off+PairSize])
	setPacked(pair, i%2, Seal(b.id(i), b.secrets[i], tier))
	writeAt(t, path, off, pair)
	return pair, off
}

// pick returns the first entry from from on whose tier passes f.
func (b *testBlock) pick(t *testing.T, from int, f func(tier uint8) bool) int {
	t.Helper()
	for i := from; i < len(b.tiers); i++ {
		if f(b.tiers[i]) {
			return i
		}
	}
	t.Fatal("no such entry in the test block")
	return 0
}

func topTier(b *testBlock, i int) uint8 {
	return uint8(len(b.h.Definition.Games[i%b.h.Definition.TicketsPerPack].Tiers))
}

// TestRetailerRewritesMappedEntry: the retailer flips the entry of their own losing
// ticket to the game's top prize, and raises a real winner's sealed tier, in the installed
// file while it is mapped. Both codes are refused with ErrTampered (before, the first paid
// the top prize); real winners elsewhere still answer.
func TestRetailerRewritesMappedEntry(t *testing.T) {
	b := newTestBlock(t, 42, 400, 11) // 3,200 entries
	path, l, fh, trust := liveLedger(t, b, 1000)
	loser := b.pick(t, 700, func(tier uint8) bool { return tier == 0 })
	small := b.pick(t, 2100, func(tier uint8) bool { return tier == 1 })
	honest := b.pick(t, 1500, func(tier uint8) bool { return tier > 0 })
	for _, i := range []int{loser, small} {
		if r, err := l.Lookup(b.code(i)); err != nil || r.Tier != b.tiers[i] {
			t.Fatalf("before: %+v, %v", r, err)
		}
	}
	forgeEntry(t, path, fh, b, loser, topTier(b, loser))
	forgeEntry(t, path, fh, b, small, topTier(b, small))
	for _, i := range []int{loser, small} {
		r, err := l.Lookup(b.code(i))
		if !errors.Is(err, ErrTampered) {
			t.Fatalf("forged entry %d: %+v (lot %v), %v; want ErrTampered", i, r, r.Lot, err)
		}
		if _, err := l.Entry(i); !errors.Is(err, ErrTampered) {
			t.Fatalf("Entry of forged entry %d: %v", i, err)
		}
	}
	if r, err := l.Lookup(b.code(honest)); err != nil || r.Tier != b.tiers[honest] {
		t.Fatalf("real winner elsewhere: %+v, %v", r, err)
	}
	// A fresh open of the rewritten file refuses it whole.
	if _, err := OpenFile(path, trust); !errors.Is(err, ErrHash) {
		t.Fatalf("reopen: %v, want ErrHash", err)
	}
}

// TestRetailerRewritesMappedTree: the retailer forges an entry and rewrites the hash tree
// in the file to match it (the chunk's leaf, then the root), or rewrites the header; the
// reader keeps the root and leaves it verified at open, so the forged entry is still
// refused and every honest answer stays right. Only the signature would be missing, which
// the next open finds.
func TestRetailerRewritesMappedTree(t *testing.T) {
	b := newTestBlock(t, 42, 400, 12)
	path, l, fh, trust := liveLedger(t, b, 1000)
	loser := b.pick(t, 1200, func(tier uint8) bool { return tier == 0 })
	honest := b.pick(t, 2500, func(tier uint8) bool { return tier > 0 })
	forgeEntry(t, path, fh, b, loser, topTier(b, loser))
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	k := loser / fh.chunkEntries
	leaf := leafHash(k, chunkBytes(data[fh.dataOff:], fh.Entries(), fh.chunkEntries, k))
	leaves := slices.Clone(fh.leaves)
	leaves[k] = leaf
	root := rootHash(leaves)
	leafOff := fixedHeaderSize + len(fh.definition) + 32*k
	writeAt(t, path, leafOff, leaf[:])
	writeAt(t, path, 52, root[:])
	if _, err := l.Lookup(b.code(loser)); !errors.Is(err, ErrTampered) {
		t.Fatalf("forged entry under a rewritten tree: %v, want ErrTampered", err)
	}
	// The header: another block number, version and definition bytes.
	var hdr [12]byte
	binary.BigEndian.PutUint16(hdr[0:], 43)
	binary.BigEndian.PutUint64(hdr[2:], 99)
	writeAt(t, path, 10, hdr[:10])
	writeAt(t, path, fixedHeaderSize+10, []byte("XXXX"))
	if h := l.Header(); h.Block != 42 || h.Version != 1 {
		t.Fatalf("header read from the rewritten file: %+v", h)
	}
	if r, err := l.Lookup(b.code(honest)); err != nil || r.Tier != b.tiers[honest] {
		t.Fatalf("real winner: %+v, %v", r, err)
	}
	if _, err := l.Lookup(b.code(loser)); !errors.Is(err, ErrTampered) {
		t.Fatalf("forged entry under a rewritten header: %v", err)
	}
	if _, err := OpenFile(path, trust); err == nil {
		t.Fatal("the rewritten file opens")
	}
}

// TestMappedFileReplacedInPlace: the file is truncated, then written again whole with a
// forged entry (what `cp forged.ledger block-42.ledger` does: same inode, O_TRUNC). The
// mapping faults while the file is short (ErrFault, no SIGBUS), and once it is whole
// again the forged entry is ErrTampered while the others answer.
func TestMappedFileReplacedInPlace(t *testing.T) {
	b := newTestBlock(t, 42, 400, 13)
	path, l, fh, _ := liveLedger(t, b, 1000)
	loser := b.pick(t, 3000, func(tier uint8) bool { return tier == 0 })
	honest := b.pick(t, 10, func(tier uint8) bool { return tier > 0 })
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, int64(fh.dataOff+100)); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Lookup(b.code(loser)); !errors.Is(err, ErrFault) {
		t.Fatalf("lookup past the end of a truncated file: %v, want ErrFault", err)
	}
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Lookup(b.code(honest)); !errors.Is(err, ErrFault) {
		t.Fatalf("lookup in an emptied file: %v, want ErrFault", err)
	}
	off := fh.dataOff + loser/2*PairSize
	setPacked(data[off:off+PairSize], loser%2, Seal(b.id(loser), b.secrets[loser], topTier(b, loser)))
	writeAt(t, path, 0, data)
	if _, err := l.Lookup(b.code(loser)); !errors.Is(err, ErrTampered) {
		t.Fatalf("forged entry in the file written again: %v, want ErrTampered", err)
	}
	if r, err := l.Lookup(b.code(honest)); err != nil || r.Tier != b.tiers[honest] {
		t.Fatalf("real winner: %+v, %v", r, err)
	}
}

// TestSegmentCheck: the lookup check covers every entry exactly: with chunks that do not
// divide into whole segments (and a one-pair chunk), every entry reads back through its
// segment, a flipped byte of any pair makes both entries of the pair and every entry of
// its segment ErrTampered, and no entry of another segment.
func TestSegmentCheck(t *testing.T) {
	b := newTestBlock(t, 42, 100, 14) // 800 entries, 400 pairs
	pub, priv := testKey(t)
	for _, chunk := range []int{2, 46, 256, 800, DefaultChunkEntries} {
		data, err := marshalChunked(b.h, b.entries, priv, chunk)
		if err != nil {
			t.Fatal(err)
		}
		l, err := Parse(data, NewTrustStore(pub))
		if err != nil {
			t.Fatalf("chunk %d: %v", chunk, err)
		}
		n := b.h.Entries()
		for i := range n {
			if e, err := l.Entry(i); err != nil || e != b.entries.At(i) {
				t.Fatalf("chunk %d, entry %d: %+v, %v", chunk, i, e, err)
			}
		}
		segOf := func(i int) [2]int {
			k := i / chunk
			return [2]int{k, (i/2 - k*chunk/2) / segmentPairs}
		}
		off := l.fh.dataOff
		for p := 0; p < n/2; p += 7 {
			data[off+p*PairSize+p%PairSize] ^= 0x10
			for i := range n {
				_, err := l.Entry(i)
				if tampered := segOf(i) == segOf(2*p); tampered != errors.Is(err, ErrTampered) || !tampered && err != nil {
					t.Fatalf("chunk %d, pair %d flipped, entry %d: %v", chunk, p, i, err)
				}
			}
			data[off+p*PairSize+p%PairSize] ^= 0x10
		}
		l.Close()
	}
}

// TestSegmentCheckOddCount: an odd number of entries (15, chunks of 4): the last entry's
// segment holds the zero padding, which the check at open and the lookup check cover.
func TestSegmentCheckOddCount(t *testing.T) {
	const n, chunk = 15, 4
	e := NewEntries(n)
	for i := range n {
		e.Set(i, Entry{Tier: uint8(i), Check: uint64(i) << 40})
	}
	fh := &fileHeader{Header: Header{Block: 42, Packs: 5, Definition: &game.Definition{TicketsPerPack: 3}}, chunkEntries: chunk}
	fh.leaves = hashChunks(e.Bytes(), n, chunk)
	fh.root = rootHash(fh.leaves)
	data := e.Bytes()
	segs := newSegments(fh)
	if err := verifyEntries(fh, data, segs); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if got, err := segs.entry(fh, data, i); err != nil || got != e.At(i) {
			t.Fatalf("entry %d: %+v, %v", i, got, err)
		}
	}
	data[len(data)-1] ^= 0x01 // the padding half of the last pair
	if _, err := segs.entry(fh, data, n-1); !errors.Is(err, ErrTampered) {
		t.Fatalf("padding changed: %v, want ErrTampered", err)
	}
	if _, err := segs.entry(fh, data, n-4); err != nil {
		t.Fatalf("entry of another chunk: %v", err)
	}
	if err := verifyEntries(fh, data, newSegments(fh)); !errors.Is(err, ErrHash) {
		t.Fatalf("verify with the padding changed: %v", err)
	}
	fh.leaves = hashChunks(data, n, chunk) // a tree over the non-zero padding
	fh.root = rootHash(fh.leaves)
	if err := verifyEntries(fh, data, newSegments(fh)); !errors.Is(err, ErrFormat) {
		t.Fatalf("verify of a tree over non-zero padding: %v, want ErrFormat", err)
	}
}

// TestSegmentHashPinned: the segment hash is SHA-256 over label, chunk, segment number and
// the bytes, cut to 16 bytes.
func TestSegmentHashPinned(t *testing.T) {
	seg := bytes.Repeat([]byte{0xa5}, 3*PairSize)
	var b segmentBuf
	sum, cp := b.fill(7, 2, seg)
	want := sha256.Sum256(append([]byte("PTLEDGER seg\x00\x00\x00\x00\x07\x00\x00\x00\x02"), seg...))
	if sum != [segmentDigest]byte(want[:segmentDigest]) || !bytes.Equal(cp, seg) {
		t.Fatalf("segment hash %x, want %x", sum, want[:segmentDigest])
	}
}

// FuzzLookupRewritten: a verified ledger whose entries are then overwritten at any offset
// with any bytes (the file rewritten under the mapping) answers every code either as it
// did before or with ErrTampered, never with another tier; an entry whose own bytes
// changed is always ErrTampered. Seeds in testdata/fuzz/FuzzLookupRewritten.
func FuzzLookupRewritten(f *testing.F) {
	pub, priv := fuzzKey(f)
	trust := NewTrustStore(pub)
	b := newTestBlock(f, 42, 20, 16) // 160 entries, chunks of 46: segments cut by chunk ends
	orig, err := marshalChunked(b.h, b.entries, priv, 46)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(uint32(0), []byte{0x01})
	f.Add(uint32(17*23+5), []byte{0xff, 0xff})
	f.Add(uint32(17*79+16), []byte{0x80})
	f.Fuzz(func(t *testing.T, off uint32, patch []byte) {
		data := bytes.Clone(orig)
		l, err := Parse(data, trust)
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		entries := data[l.fh.dataOff:]
		start := int(off % uint32(len(entries)))
		copy(entries[start:], patch)
		before := orig[l.fh.dataOff:]
		for i := range b.h.Entries() {
			r, err := l.Lookup(b.code(i))
			changed := !bytes.Equal(entries[i/2*PairSize:i/2*PairSize+PairSize], before[i/2*PairSize:i/2*PairSize+PairSize])
			switch {
			case err == nil && (changed || r.Tier != b.tiers[i]):
				t.Fatalf("entry %d (changed %v): tier %d, sealed %d", i, changed, r.Tier, b.tiers[i])
			case err != nil && !errors.Is(err, ErrTampered):
				t.Fatalf("entry %d: %v", i, err)
			}
		}
	})
}
