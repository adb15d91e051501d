package block

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	mrand "math/rand/v2"
)

// A Seed determines a whole block: design, placement, secrets and plays. It is as
// sensitive as the printer's file (it regenerates every validation code).
type Seed [32]byte

// NewSeed draws a seed from the operating system's CSPRNG.
func NewSeed() (Seed, error) {
	var s Seed
	if _, err := rand.Read(s[:]); err != nil {
		return s, fmt.Errorf("block: drawing a seed: %w", err)
	}
	return s, nil
}

// ParseSeed reads a seed written as 64 hexadecimal digits.
func ParseSeed(text string) (Seed, error) {
	var s Seed
	if len(text) != 2*len(s) {
		return s, fmt.Errorf("block: seed: %d characters, want %d hexadecimal digits", len(text), 2*len(s))
	}
	if _, err := hex.Decode(s[:], []byte(text)); err != nil {
		return s, fmt.Errorf("block: seed: %w", err)
	}
	return s, nil
}

func (s Seed) String() string { return hex.EncodeToString(s[:]) }

// stream returns the ChaCha8 stream (a CSPRNG) for one purpose and index, keyed by
// SHA-256(seed ‖ purpose ‖ index): independent streams per chunk let workers run in
// parallel and still give the same bytes whatever their number.
func (s Seed) stream(purpose string, index uint64) *mrand.Rand {
	return mrand.New(s.chacha(purpose, index))
}

// chacha returns the raw ChaCha8 source of a stream (for reading secret bytes).
func (s Seed) chacha(purpose string, index uint64) *mrand.ChaCha8 {
	h := sha256.New()
	h.Write(s[:])
	h.Write([]byte(purpose))
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], index)
	h.Write(n[:])
	var key [32]byte
	h.Sum(key[:0])
	return mrand.NewChaCha8(key)
}
