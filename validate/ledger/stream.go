package ledger

import (
	"errors"
	"fmt"
	"io"
)

// inspectStream reads a ledger of size bytes from r with plain reads: the header and its
// signature, then every chunk of entries, hashed as it is read and compared with its
// leaf. With strict, the first failed check is returned as the error and the definition
// is only parsed once the signature verified (the terminal's order); otherwise the
// signature and hash status go into the Info and only an unreadable header is an error.
func inspectStream(r io.Reader, size int64, trust *TrustStore, strict bool) (*Info, error) {
	if size > maxFileSize {
		return nil, fmt.Errorf("ledger: header: file of %d bytes, a ledger has at most %d: %w", size, int64(maxFileSize), ErrFormat)
	}
	head := make([]byte, min(size, fixedHeaderSize))
	if err := readFull(r, head); err != nil {
		return nil, err
	}
	hlen, err := headerLength(head)
	if err != nil {
		return nil, err
	}
	if hlen < fixedHeaderSize || hlen > maxHeaderSize || hlen+signatureSize > size {
		return nil, fmt.Errorf("ledger: header: header length %d in a file of %d bytes: %w", hlen, size, ErrFormat)
	}
	buf := make([]byte, hlen+signatureSize)
	copy(buf, head)
	if err := readFull(r, buf[len(head):]); err != nil {
		return nil, err
	}
	fh, err := parseHeaderAt(buf, size)
	if err != nil {
		return nil, err
	}
	sig := verifyBy(trust, fmt.Sprintf("block %d ledger", fh.Block), fh.keyID, fh.signed, fh.signature)
	if strict && sig != nil {
		return nil, sig
	}
	if err := fh.parseDefinition(); err != nil {
		return nil, err
	}
	in := &Info{Header: fh.Header, KeyID: fh.keyID, Root: fh.root, ChunkEntries: fh.chunkEntries, Chunks: len(fh.leaves), Size: int(size), Signature: sig}
	if in.Hashes, err = streamEntries(r, fh); err != nil {
		return nil, err
	}
	if strict && in.Hashes != nil {
		return nil, in.Hashes
	}
	return in, nil
}

// streamEntries reads the entries chunk by chunk and checks them against the hash tree:
// hashErr says why they do not match (nil when they do); err is a read error.
func streamEntries(r io.Reader, fh *fileHeader) (hashErr, err error) {
	n := fh.Entries()
	if rootHash(fh.leaves) != fh.root {
		hashErr = fmt.Errorf("ledger: block %d: leaf table does not hash to the root: %w", fh.Block, ErrHash)
	}
	buf := make([]byte, PackedSize(min(fh.chunkEntries, n)))
	var last []byte
	for k := range fh.leaves {
		c := buf[:PackedSize(min((k+1)*fh.chunkEntries, n))-k*fh.chunkEntries/2*PairSize]
		if err := readFull(r, c); err != nil {
			return nil, err
		}
		if hashErr == nil && leafHash(k, c) != fh.leaves[k] {
			hashErr = fmt.Errorf("ledger: block %d: chunk %d (entries %d..): %w", fh.Block, k, k*fh.chunkEntries, ErrHash)
		}
		last = c
	}
	var one [1]byte
	if m, _ := r.Read(one[:]); m != 0 {
		return nil, fmt.Errorf("ledger: block %d: the file grew while it was read: %w", fh.Block, ErrFormat)
	}
	if hashErr == nil && !paddingZero(last, n-(len(fh.leaves)-1)*fh.chunkEntries) {
		hashErr = fmt.Errorf("ledger: block %d: padding after the last entry is not zero: %w", fh.Block, ErrFormat)
	}
	return hashErr, nil
}

// readFull reads len(b) bytes; a short file is malformed (it shrank while read, or lied).
func readFull(r io.Reader, b []byte) error {
	if _, err := io.ReadFull(r, b); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			return fmt.Errorf("ledger: file shorter than its header says (truncated while read?): %w", ErrFormat)
		}
		return fmt.Errorf("ledger: read: %w", err)
	}
	return nil
}
