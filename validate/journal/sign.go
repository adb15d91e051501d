package journal

import (
	"crypto/ed25519"
	"fmt"

	"github.com/packterm/pos/validate/ledger"
)

// Every record is signed with the device key as it is written (docs/journal.md, "Signed
// records"): the signature covers the record's hash, which covers its content and, through
// Prev, every record before it. Editing a record, re-chained or not, then needs the device
// key, and verification names the first record whose signature no longer holds.

// sigDomain separates record signatures from checkpoint signatures and any other use of
// the device key.
const sigDomain = "packterm journal record signature v2\x00"

// sigTrailer is what a version 2 record holds after its hash: the key id and the signature.
const sigTrailer = len(ledger.KeyID{}) + ed25519.SignatureSize

// version is the record's encoding version (RecordVersion while it is being built).
func (r *Record) version() byte {
	if r.Version == 0 {
		return RecordVersion
	}
	return r.Version
}

// Signed reports whether the record carries its own signature (encoding version 2; records
// written before records were signed do not).
func (r *Record) Signed() bool { return r.version() != RecordVersionUnsigned }

// signedMessage is what the device key signs for a record: the domain, the key id, the hash.
func signedMessage(key ledger.KeyID, hash *[32]byte) []byte {
	m := make([]byte, 0, len(sigDomain)+len(key)+len(hash))
	m = append(m, sigDomain...)
	m = append(m, key[:]...)
	return append(m, hash[:]...)
}

// VerifySignature checks the record's own signature with pub, the terminal's device key:
// what the operator does with a record from the fleet's copy. It does not check the hash
// (DecodeRecord does) nor the chain (Verify does). Errors wrap ErrUnsigned or
// ErrBadSignature.
func (r *Record) VerifySignature(pub ed25519.PublicKey) error {
	if !r.Signed() {
		return fmt.Errorf("journal: record %s: %w (format version %d)", r.ID(), ErrUnsigned, r.Version)
	}
	if err := verifySig(pub, ledger.IDOf(pub), r.Key, &r.Hash, &r.Sig); err != nil {
		return fmt.Errorf("journal: record %s: %w", r.ID(), err)
	}
	return nil
}

func verifySig(pub ed25519.PublicKey, want, key ledger.KeyID, hash *[32]byte, sig *[ed25519.SignatureSize]byte) error {
	if key != want {
		return fmt.Errorf("%w: signed by key %v, not by the device key %v", ErrBadSignature, key, want)
	}
	if len(pub) != ed25519.PublicKeySize || !ed25519.Verify(pub, signedMessage(key, hash), sig[:]) {
		return fmt.Errorf("%w: the signature of device key %v does not match the record: it changed after it was written", ErrBadSignature, want)
	}
	return nil
}

// sealSigned sets r's version, hash, key id and signature with priv, and returns its
// encoding: the form every record is stored in.
func sealSigned(priv ed25519.PrivateKey, key ledger.KeyID, r *Record) []byte {
	r.Version, r.Key = RecordVersion, key
	b := appendBody(make([]byte, 0, 160+sigTrailer), r)
	r.Hash = recordHash(b)
	copy(r.Sig[:], ed25519.Sign(priv, signedMessage(key, &r.Hash)))
	return AppendRecord(b[:0], r)
}
