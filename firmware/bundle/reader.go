package bundle

import (
	"crypto/sha256"
	"fmt"
	"hash"
	"io"

	"github.com/packterm/pos/firmware/fwkey"
)

// Reader streams a bundle's payload files, hashing each as it is read. Use Next to move to
// a file, then Read it to its end: Read returns an error wrapping ErrHash instead of
// io.EOF when the file does not match the manifest. Until the last file has been read to
// its end with no error, nothing read can be trusted.
type Reader struct {
	h    *Header
	r    io.Reader
	i    int // index of the current file, -1 before the first Next
	left int64
	sum  hash.Hash
	err  error // sticky
}

// NewReader reads the header from r and verifies its signature against trust (which must
// hold at least one key) before any payload byte is read.
func NewReader(r io.Reader, trust *fwkey.TrustStore) (*Reader, error) {
	h, err := ReadHeader(r)
	if err != nil {
		return nil, err
	}
	if err := h.Verify(trust); err != nil {
		return nil, err
	}
	return &Reader{h: h, r: r, i: -1}, nil
}

// NewUnverifiedReader reads the header without checking any signature: for inspecting
// and signing bundles on the build host, never for installing them.
func NewUnverifiedReader(r io.Reader) (*Reader, error) {
	h, err := ReadHeader(r)
	if err != nil {
		return nil, err
	}
	return &Reader{h: h, r: r, i: -1}, nil
}

// Header is the bundle's header.
func (r *Reader) Header() *Header { return r.h }

// Manifest is the bundle's manifest.
func (r *Reader) Manifest() *Manifest { return r.h.Manifest }

// Next moves to the next file, reading (and checking) what is left of the current one. It
// returns io.EOF after the last file; it never reads past the bundle's end.
func (r *Reader) Next() (File, error) {
	if r.err != nil {
		return File{}, r.err
	}
	if r.i >= 0 && (r.left > 0 || r.sum != nil) {
		if _, err := io.Copy(io.Discard, r); err != nil {
			return File{}, err
		}
	}
	r.i++
	if r.i >= len(r.h.Manifest.Files) {
		r.i = len(r.h.Manifest.Files)
		return File{}, io.EOF
	}
	f := r.h.Manifest.Files[r.i]
	r.left, r.sum = f.Size, sha256.New()
	return f, nil
}

// Read reads the current file.
func (r *Reader) Read(p []byte) (int, error) {
	if r.err != nil {
		return 0, r.err
	}
	if r.i < 0 || r.i >= len(r.h.Manifest.Files) {
		return 0, io.EOF
	}
	if r.left == 0 {
		return 0, r.finish()
	}
	if int64(len(p)) > r.left {
		p = p[:r.left]
	}
	n, err := r.r.Read(p)
	r.sum.Write(p[:n])
	r.left -= int64(n)
	if err == io.EOF && r.left > 0 {
		r.err = fmt.Errorf("bundle: %s: %w", r.h.Manifest.Files[r.i].Name, shortRead(err))
		return n, r.err
	}
	if err != nil && err != io.EOF {
		r.err = fmt.Errorf("bundle: %s: %w", r.h.Manifest.Files[r.i].Name, err)
		return n, r.err
	}
	if r.left == 0 {
		if ferr := r.finish(); ferr != io.EOF {
			return n, ferr
		}
	}
	return n, nil
}

// finish compares the hash of a fully read file: io.EOF when it matches.
func (r *Reader) finish() error {
	if r.sum == nil {
		return io.EOF
	}
	f := r.h.Manifest.Files[r.i]
	var got [32]byte
	r.sum.Sum(got[:0])
	r.sum = nil
	if got != f.Sum() {
		r.err = fmt.Errorf("bundle: %s: SHA-256 %x, manifest says %s: %w", f.Name, got[:8], f.SHA256[:16], ErrHash)
		return r.err
	}
	return io.EOF
}

// Check reads the whole payload, checking every file. When atEnd is true the underlying
// reader must end right after the payload (a bundle file with trailing data is refused).
func (r *Reader) Check(atEnd bool) error {
	for {
		_, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
	}
	if atEnd {
		var b [1]byte
		if n, _ := io.ReadFull(r.r, b[:]); n != 0 {
			return fmt.Errorf("bundle: data after the payload: %w", ErrFormat)
		}
	}
	return nil
}
