package bundle

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
)

// Source is a payload file to put in a bundle: its type, its name in the slot and how to
// open its content (opened twice: once to hash, once to write).
type Source struct {
	Type FileType
	Name string
	Open func() (io.ReadCloser, error)
}

// NewManifest hashes every source and returns the checked manifest.
func NewManifest(version, minVersion Version, target Target, srcs []Source) (*Manifest, error) {
	m := &Manifest{Format: FormatVersion, Version: version, MinVersion: minVersion, Target: target}
	for _, s := range srcs {
		size, sum, err := hashSource(s, s.Type.maxSize())
		if err != nil {
			return nil, err
		}
		m.Files = append(m.Files, File{Type: s.Type, Name: s.Name, Size: size, SHA256: hex.EncodeToString(sum[:])})
	}
	if err := m.Check(); err != nil {
		return nil, err
	}
	return m, nil
}

func hashSource(s Source, max int64) (int64, [32]byte, error) {
	rc, err := s.Open()
	if err != nil {
		return 0, [32]byte{}, fmt.Errorf("bundle: %s: %w", s.Name, err)
	}
	defer rc.Close()
	h := sha256.New()
	n, err := io.Copy(h, io.LimitReader(rc, max+1))
	if err != nil {
		return 0, [32]byte{}, fmt.Errorf("bundle: %s: %w", s.Name, err)
	}
	var sum [32]byte
	h.Sum(sum[:0])
	return n, sum, nil
}

// Write writes a bundle of m with the sources' content, signed with priv (nil: unsigned).
// Each source is hashed again as it is copied: a file that changed since NewManifest is an
// error (the output is then incomplete and must be discarded).
func Write(w io.Writer, m *Manifest, srcs []Source, priv ed25519.PrivateKey) error {
	raw, err := m.Marshal()
	if err != nil {
		return err
	}
	if len(raw) > MaxManifestSize {
		return fmt.Errorf("bundle: manifest: %d bytes, more than %d: %w", len(raw), MaxManifestSize, ErrManifest)
	}
	if len(srcs) != len(m.Files) {
		return fmt.Errorf("bundle: write: %d sources for %d files", len(srcs), len(m.Files))
	}
	h := &Header{Manifest: m, Raw: raw}
	if priv != nil {
		h.Sign(priv)
	}
	if _, err := w.Write(h.Encode()); err != nil {
		return fmt.Errorf("bundle: write: %w", err)
	}
	for i, s := range srcs {
		if err := copySource(w, s, m.Files[i]); err != nil {
			return err
		}
	}
	return nil
}

func copySource(w io.Writer, s Source, f File) error {
	rc, err := s.Open()
	if err != nil {
		return fmt.Errorf("bundle: %s: %w", s.Name, err)
	}
	defer rc.Close()
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(w, h), io.LimitReader(rc, f.Size+1))
	if err != nil {
		return fmt.Errorf("bundle: write %s: %w", s.Name, err)
	}
	var sum [32]byte
	h.Sum(sum[:0])
	if n != f.Size || sum != f.Sum() {
		return fmt.Errorf("bundle: write %s: changed since it was hashed: %w", s.Name, ErrHash)
	}
	return nil
}

// Sign copies the bundle read from r to w with a new signature by priv (replacing any).
// The payload is checked against the manifest on the way; on error w holds an incomplete
// bundle.
func Sign(w io.Writer, r io.Reader, priv ed25519.PrivateKey) error {
	br, err := NewUnverifiedReader(r)
	if err != nil {
		return err
	}
	h := *br.Header()
	h.Sign(priv)
	if _, err := w.Write(h.Encode()); err != nil {
		return fmt.Errorf("bundle: sign: %w", err)
	}
	for {
		_, err := br.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if _, err := io.Copy(w, br); err != nil {
			return fmt.Errorf("bundle: sign: %w", err)
		}
	}
}
