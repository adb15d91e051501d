package image

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/packterm/pos/firmware/bundle"
	"github.com/packterm/pos/firmware/fwkey"
	"github.com/packterm/pos/internal/strictjson"
)

// The seal's place and shape.
const (
	SealMagic  = "PTFWIMG1"
	SealOffset = 4096
	SealSize   = 4096
	// FirstPartition is where the first partition may start at the earliest (1 MiB, as
	// scripts/image.sh lays it out): the seal must lie before it.
	FirstPartition = 1 << 20
	signContext    = "packterm firmware image v1\x00"
	maxManifest    = SealSize - len(SealMagic) - 4 - 8 - ed25519.SignatureSize
	// MaxSize bounds an image (64 GiB): a larger size in a manifest is refused.
	MaxSize = 64 << 30
)

// Errors of a seal, matched with errors.Is.
var (
	ErrFormat   = errors.New("image: not a sealed image")
	ErrUnsigned = errors.New("image: seal not signed")
	ErrHash     = errors.New("image: contents do not match the seal")
)

// Manifest is what the seal signs.
type Manifest struct {
	Format  int            `json:"format"`
	Version bundle.Version `json:"version"`
	Target  bundle.Target  `json:"target"`
	Size    int64          `json:"size"`
	SHA256  string         `json:"sha256"`
}

func (m *Manifest) check() error {
	switch {
	case m.Format != 1:
		return fmt.Errorf("image: manifest format %d, want 1: %w", m.Format, ErrFormat)
	case m.Size < FirstPartition || m.Size > MaxSize || m.Size%512 != 0:
		return fmt.Errorf("image: manifest size %d: %w", m.Size, ErrFormat)
	case m.Target.OS == "" || m.Target.Arch == "" || m.Target.Board == "":
		return fmt.Errorf("image: manifest target %q incomplete: %w", m.Target.String(), ErrFormat)
	}
	if b, err := hex.DecodeString(m.SHA256); err != nil || len(b) != sha256.Size || hex.EncodeToString(b) != m.SHA256 {
		return fmt.Errorf("image: manifest sha256 %q: %w", m.SHA256, ErrFormat)
	}
	return nil
}

// Seal is a parsed seal.
type Seal struct {
	Manifest *Manifest
	Raw      []byte
	KeyID    fwkey.ID
	Sig      [ed25519.SignatureSize]byte
}

func signedMessage(raw []byte) []byte {
	msg := append([]byte(signContext), binary.BigEndian.AppendUint32(nil, uint32(len(raw)))...)
	return append(msg, raw...)
}

// ParseSeal reads the seal block (SealSize bytes at SealOffset); it does not check the
// signature nor the image.
func ParseSeal(block []byte) (*Seal, error) {
	if len(block) < len(SealMagic)+4 || string(block[:len(SealMagic)]) != SealMagic {
		return nil, fmt.Errorf("image: no seal at byte %d: %w", SealOffset, ErrFormat)
	}
	n := int(binary.BigEndian.Uint32(block[len(SealMagic):]))
	start := len(SealMagic) + 4
	if n < 2 || n > maxManifest || start+n+8+ed25519.SignatureSize > len(block) {
		return nil, fmt.Errorf("image: seal manifest length %d: %w", n, ErrFormat)
	}
	raw := block[start : start+n]
	var m Manifest
	if err := strictjson.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("image: seal manifest: %v: %w", err, ErrFormat)
	}
	if err := m.check(); err != nil {
		return nil, err
	}
	s := &Seal{Manifest: &m, Raw: bytes.Clone(raw)}
	copy(s.KeyID[:], block[start+n:])
	copy(s.Sig[:], block[start+n+8:])
	if rest := block[start+n+8+ed25519.SignatureSize:]; bytes.ContainsFunc(rest, func(r rune) bool { return r != 0 }) {
		return nil, fmt.Errorf("image: bytes after the seal: %w", ErrFormat)
	}
	return s, nil
}

// encode returns the seal block, SealSize bytes.
func (s *Seal) encode() []byte {
	b := make([]byte, 0, SealSize)
	b = append(b, SealMagic...)
	b = binary.BigEndian.AppendUint32(b, uint32(len(s.Raw)))
	b = append(b, s.Raw...)
	b = append(b, s.KeyID[:]...)
	b = append(b, s.Sig[:]...)
	return append(b, make([]byte, SealSize-len(b))...)
}

// Hash returns the SHA-256 of the first size bytes of r with the seal block as zeros.
func Hash(r io.ReaderAt, size int64) ([32]byte, error) {
	h := sha256.New()
	sec := io.NewSectionReader(r, 0, size)
	if _, err := io.CopyN(h, sec, SealOffset); err != nil {
		return [32]byte{}, fmt.Errorf("image: read: %w", err)
	}
	h.Write(make([]byte, SealSize))
	if _, err := sec.Seek(SealOffset+SealSize, io.SeekStart); err != nil {
		return [32]byte{}, fmt.Errorf("image: read: %w", err)
	}
	if _, err := io.CopyN(h, sec, size-SealOffset-SealSize); err != nil {
		return [32]byte{}, fmt.Errorf("image: read (%d bytes expected): %w", size, err)
	}
	return [32]byte(h.Sum(nil)), nil
}

// Sealer is what Write needs of an image file.
type Sealer interface {
	io.ReaderAt
	io.WriterAt
}

// Write seals the size-byte image f for version and target with priv.
func Write(f Sealer, size int64, version bundle.Version, target bundle.Target, priv ed25519.PrivateKey) (*Seal, error) {
	sum, err := Hash(f, size)
	if err != nil {
		return nil, err
	}
	m := &Manifest{Format: 1, Version: version, Target: target, Size: size, SHA256: hex.EncodeToString(sum[:])}
	if err := m.check(); err != nil {
		return nil, err
	}
	raw, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("image: manifest: %w", err)
	}
	if len(raw) > maxManifest {
		return nil, fmt.Errorf("image: manifest of %d bytes: %w", len(raw), ErrFormat)
	}
	s := &Seal{Manifest: m, Raw: raw, KeyID: fwkey.IDOf(priv.Public().(ed25519.PublicKey))}
	copy(s.Sig[:], ed25519.Sign(priv, signedMessage(raw)))
	if _, err := f.WriteAt(s.encode(), SealOffset); err != nil {
		return nil, fmt.Errorf("image: write seal: %w", err)
	}
	return s, nil
}

// Verify checks r as a terminal's technician would before writing it: a seal signed by a
// trusted firmware key, and the image's bytes matching it.
func Verify(r io.ReaderAt, trust *fwkey.TrustStore) (*Seal, error) {
	block := make([]byte, SealSize)
	if _, err := r.ReadAt(block, SealOffset); err != nil {
		return nil, fmt.Errorf("image: read seal: %w", errors.Join(err, ErrFormat))
	}
	s, err := ParseSeal(block)
	if err != nil {
		return nil, err
	}
	if s.Sig == [ed25519.SignatureSize]byte{} {
		return nil, ErrUnsigned
	}
	if err := trust.Verify(s.KeyID, signedMessage(s.Raw), s.Sig[:]); err != nil {
		return nil, fmt.Errorf("image: verify: %w", err)
	}
	sum, err := Hash(r, s.Manifest.Size)
	if err != nil {
		return nil, err
	}
	if hex.EncodeToString(sum[:]) != s.Manifest.SHA256 {
		return nil, fmt.Errorf("image: sha256 %x, sealed %s: %w", sum, s.Manifest.SHA256, ErrHash)
	}
	return s, nil
}
