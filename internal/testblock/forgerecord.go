package testblock

import (
	"crypto/ed25519"
	"crypto/sha256"
	"fmt"

	"github.com/packterm/pos/validate/journal"
	"github.com/packterm/pos/validate/ledger"
)

// ForgeRecord encodes r as an insider's own tool would, from the record format
// (docs/journal.md): with key nil an unsigned record (format version 1), otherwise a
// version 2 record signed with key; its hash computed over its fields as they are (Prev
// included, whatever it says). It returns the encoding, which journal.DecodeRecord
// accepts, and the record decoded from it.
func ForgeRecord(r journal.Record, key ed25519.PrivateKey) ([]byte, journal.Record, error) {
	r.Version, r.Key, r.Sig = journal.RecordVersionUnsigned, ledger.KeyID{}, [ed25519.SignatureSize]byte{}
	trailer := 0
	if key != nil {
		r.Version, r.Key = journal.RecordVersion, ledger.IDOf(key.Public().(ed25519.PublicKey))
		trailer = len(r.Key) + ed25519.SignatureSize
	}
	enc := journal.AppendRecord(nil, &r)
	n := len(enc) - 32 - trailer
	h := sha256.Sum256(append([]byte("packterm journal record v1\x00"), enc[:n]...))
	copy(enc[n:], h[:])
	if key != nil {
		msg := append(append([]byte("packterm journal record signature v2\x00"), r.Key[:]...), h[:]...)
		copy(enc[n+32+len(r.Key):], ed25519.Sign(key, msg))
	}
	out, err := journal.DecodeRecord(enc)
	if err != nil {
		return nil, journal.Record{}, fmt.Errorf("testblock: forge record: %w", err)
	}
	return enc, out, nil
}
