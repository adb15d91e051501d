package bundle

import (
	"crypto/ed25519"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/packterm/pos/firmware/fwkey"
)

// Magic opens every bundle.
const Magic = "PTFWBNDL"

// signContext prefixes the signed message so a bundle signature means nothing elsewhere.
const signContext = "packterm firmware bundle v1\x00"

// Header is the part of a bundle before the payload: the manifest (parsed and as sent)
// and its signature.
type Header struct {
	Manifest *Manifest
	Raw      []byte // the manifest bytes as signed
	KeyID    fwkey.ID
	Sig      [ed25519.SignatureSize]byte
}

// Size is the header's length in bytes; the payload starts there.
func (h *Header) Size() int64 { return int64(len(Magic) + 4 + len(h.Raw) + 8 + ed25519.SignatureSize) }

// BundleSize is the whole bundle's length.
func (h *Header) BundleSize() int64 { return h.Size() + h.Manifest.PayloadSize() }

// Signed reports whether the header carries a signature (unsigned bundles come from
// `posctl fw build` without a key and are refused by every install).
func (h *Header) Signed() bool { return h.Sig != [ed25519.SignatureSize]byte{} }

// SignedMessage is what the firmware key signs: a context string, the manifest length and
// the manifest.
func SignedMessage(raw []byte) []byte {
	msg := make([]byte, 0, len(signContext)+4+len(raw))
	msg = append(msg, signContext...)
	msg = binary.BigEndian.AppendUint32(msg, uint32(len(raw)))
	return append(msg, raw...)
}

// Verify checks the signature against trust.
func (h *Header) Verify(trust *fwkey.TrustStore) error {
	if !h.Signed() {
		return ErrUnsigned
	}
	if err := trust.Verify(h.KeyID, SignedMessage(h.Raw), h.Sig[:]); err != nil {
		return fmt.Errorf("bundle: verify: %w", err)
	}
	return nil
}

// Encode returns the header's bytes.
func (h *Header) Encode() []byte {
	b := make([]byte, 0, h.Size())
	b = append(b, Magic...)
	b = binary.BigEndian.AppendUint32(b, uint32(len(h.Raw)))
	b = append(b, h.Raw...)
	b = append(b, h.KeyID[:]...)
	return append(b, h.Sig[:]...)
}

// Sign sets the signature with priv.
func (h *Header) Sign(priv ed25519.PrivateKey) {
	h.KeyID = fwkey.IDOf(priv.Public().(ed25519.PublicKey))
	copy(h.Sig[:], ed25519.Sign(priv, SignedMessage(h.Raw)))
}

// ReadHeader reads and parses a bundle's header from r, reading exactly Header.Size bytes
// (never more than MaxManifestSize plus 84). It does not check the signature.
func ReadHeader(r io.Reader) (*Header, error) {
	var pre [len(Magic) + 4]byte
	if _, err := io.ReadFull(r, pre[:]); err != nil {
		return nil, fmt.Errorf("bundle: header: %w", shortRead(err))
	}
	if string(pre[:len(Magic)]) != Magic {
		return nil, fmt.Errorf("bundle: header: bad magic %q: %w", pre[:len(Magic)], ErrFormat)
	}
	n := binary.BigEndian.Uint32(pre[len(Magic):])
	if n < 2 || n > MaxManifestSize {
		return nil, fmt.Errorf("bundle: header: manifest length %d out of 2..%d: %w", n, MaxManifestSize, ErrFormat)
	}
	raw := make([]byte, n)
	if _, err := io.ReadFull(r, raw); err != nil {
		return nil, fmt.Errorf("bundle: header: manifest: %w", shortRead(err))
	}
	m, err := ParseManifest(raw)
	if err != nil {
		return nil, err
	}
	h := &Header{Manifest: m, Raw: raw}
	var tail [8 + ed25519.SignatureSize]byte
	if _, err := io.ReadFull(r, tail[:]); err != nil {
		return nil, fmt.Errorf("bundle: header: signature: %w", shortRead(err))
	}
	copy(h.KeyID[:], tail[:8])
	copy(h.Sig[:], tail[8:])
	return h, nil
}

// shortRead turns an early end of data into io.ErrUnexpectedEOF wrapped with ErrFormat.
func shortRead(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("truncated: %w", errors.Join(io.ErrUnexpectedEOF, ErrFormat))
	}
	return err
}
