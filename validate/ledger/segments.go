package ledger

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
)

// The check at decision time. A mapped ledger is verified whole at open, but the file
// stays writable by whoever is root on the terminal, and a MAP_SHARED mapping shows a
// rewrite at once: an answer read straight from the mapping would be the file's, not the
// operator's. So every entry a decision reads is copied out of the mapping together with
// its segment (segmentPairs pairs of entries of one chunk) and hashed; the segment hash
// must be the one kept in memory when the chunk was checked against its leaf, and that
// leaf against the signed root. The segment hashes are computed at open from the very
// bytes the leaf hash covered (one private copy feeds both), so they are as good as the
// root: the anchor is the root and the leaf table in memory, which nobody else writes.
//
// A full block has 46 chunks of 2,228,224 bytes: re-hashing a chunk per lookup would cost
// about a millisecond; a segment of 272 bytes costs five SHA-256 compressions. The table
// holds 16 bytes per segment (a SHA-256 prefix: 128 bits against a second preimage): 6 MB
// for a full block, beside its 102 MB of mapped entries.

const (
	// segmentPairs is the number of entry pairs per segment: 32 entries, 272 bytes; with
	// the 21 bytes of prefix, five SHA-256 compressions.
	segmentPairs = 16
	segmentBytes = segmentPairs * PairSize
	segmentLabel = "PTLEDGER seg\x00"
	// segmentPrefix: the label, the chunk and the segment's number in its chunk (4 bytes
	// each, big-endian) precede the segment's bytes in its hash.
	segmentPrefix = len(segmentLabel) + 8
	segmentDigest = 16
)

// segmentBuf holds a segment's hash input: prefix, then the bytes copied from the entries.
type segmentBuf [segmentPrefix + segmentBytes]byte

// segments is the in-memory check of a ledger's entries: the hash of every segment of
// every chunk, chunk k's at [k·perChunk, (k+1)·perChunk).
type segments struct {
	perChunk int
	sums     [][segmentDigest]byte
}

// newSegments sizes the table for fh's chunks: chunk 0 has the most pairs (every chunk
// but the last is full; a single chunk holds all entries).
func newSegments(fh *fileHeader) *segments {
	pairs := (min(fh.chunkEntries, fh.Entries()) + 1) / 2
	per := (pairs + segmentPairs - 1) / segmentPairs
	return &segments{perChunk: per, sums: make([][segmentDigest]byte, per*len(fh.leaves))}
}

// fill copies segment j of chunk k (bytes seg, from the entries) into b and returns the
// segment's hash and the copy; the copy is what the caller must go on with.
func (b *segmentBuf) fill(k, j int, seg []byte) ([segmentDigest]byte, []byte) {
	copy(b[:], segmentLabel)
	binary.BigEndian.PutUint32(b[len(segmentLabel):], uint32(k))
	binary.BigEndian.PutUint32(b[len(segmentLabel)+4:], uint32(j))
	n := copy(b[segmentPrefix:], seg)
	sum := sha256.Sum256(b[:segmentPrefix+n])
	return [segmentDigest]byte(sum[:segmentDigest]), b[segmentPrefix : segmentPrefix+n]
}

// hashChunk hashes chunk k (its bytes in chunk) into its leaf and fills its segment hashes
// from the same private copies, segment by segment, so that a leaf that matches vouches
// for exactly the bytes the segment hashes were taken from (a file rewritten while it is
// hashed cannot slip other bytes under one of them). last is the copy of the chunk's last
// pair (the padding check of an odd count reads it).
func (s *segments) hashChunk(k int, chunk []byte) (leaf [32]byte, last []byte) {
	h := sha256.New()
	var kb [4]byte
	binary.BigEndian.PutUint32(kb[:], uint32(k))
	h.Write([]byte(leafLabel))
	h.Write(kb[:])
	var b segmentBuf
	var seg []byte
	for j, off := 0, 0; off < len(chunk); j, off = j+1, off+segmentBytes {
		s.sums[k*s.perChunk+j], seg = b.fill(k, j, chunk[off:min(off+segmentBytes, len(chunk))])
		h.Write(seg)
	}
	h.Sum(leaf[:0])
	if len(seg) >= PairSize {
		last = append([]byte(nil), seg[len(seg)-PairSize:]...)
	}
	return leaf, last
}

// entry reads entry i of the packed entries (data, the mapping) through its segment's
// check: the segment is copied out, hashed and compared with the sum kept at open, and
// the entry is decoded from the copy. A segment that does not match is ErrTampered. The
// caller runs it under catchFault (the copy reads the mapping).
func (s *segments) entry(fh *fileHeader, data []byte, i int) (Entry, error) {
	c, n := fh.chunkEntries, fh.Entries()
	k := i / c
	chunkFirst := k * c / 2                // first pair of the chunk
	chunkEnd := (min((k+1)*c, n) + 1) / 2  // pair after the chunk's last
	j := (i/2 - chunkFirst) / segmentPairs // segment of the entry in its chunk
	first := chunkFirst + j*segmentPairs
	end := min(first+segmentPairs, chunkEnd)
	var b segmentBuf
	sum, seg := b.fill(k, j, data[first*PairSize:end*PairSize])
	if sum != s.sums[k*s.perChunk+j] {
		return Entry{}, fmt.Errorf("block %d: entries %d..%d (chunk %d) no longer match the hash tree verified at open (file rewritten in place?): %w",
			fh.Block, 2*first, 2*end-1, k, ErrTampered)
	}
	return packedAt(seg, i-2*first), nil
}
