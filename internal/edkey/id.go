package edkey

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
)

// ID names a public key in files and messages: the first 8 bytes of its SHA-256.
type ID [8]byte

// IDOf returns the id of pub.
func IDOf(pub ed25519.PublicKey) ID {
	s := sha256.Sum256(pub)
	var id ID
	copy(id[:], s[:])
	return id
}

// String is the id in hex.
func (id ID) String() string { return hex.EncodeToString(id[:]) }
