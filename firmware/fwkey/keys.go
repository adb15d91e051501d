package fwkey

import (
	"crypto/ed25519"
	"crypto/rand"
	"errors"

	"github.com/packterm/pos/internal/edkey"
)

// Key file types: the first word of a firmware key file.
const (
	PublicType  = "pos-firmware-ed25519-public"
	PrivateType = "pos-firmware-ed25519-private"
)

// File names GenerateFiles writes.
const (
	PublicFile  = "firmware.pub"
	PrivateFile = "firmware.key"
)

// MaxFileSize bounds a key file read from disk; real ones are under 200 bytes.
const MaxFileSize = edkey.MaxFileSize

// ErrKeyFile is wrapped by every refusal of a key file's content.
var ErrKeyFile = errors.New("fwkey: bad key file")

// keys is the family of firmware key files.
var keys = edkey.Family{
	Name: "fwkey", Public: PublicType, Private: PrivateType, Err: ErrKeyFile,
	Others:      map[string]string{"pos-ed25519-": "a ledger (operator) key, not a firmware key"},
	NeedPrivate: "this needs the firmware private key (firmware.key from posctl keys gen --firmware)",
}

// ID names a public key: the first 8 bytes of its SHA-256.
type ID = edkey.ID

// IDOf returns the id of pub.
func IDOf(pub ed25519.PublicKey) ID { return edkey.IDOf(pub) }

// MarshalPublic returns the key file text of pub.
func MarshalPublic(pub ed25519.PublicKey, comment string) []byte {
	return keys.MarshalPublic(pub, comment)
}

// MarshalPrivate returns the key file text of priv (its 32-byte seed).
func MarshalPrivate(priv ed25519.PrivateKey, comment string) []byte {
	return keys.MarshalPrivate(priv, comment)
}

// ParsePublic reads a firmware public key file's text.
func ParsePublic(text []byte) (ed25519.PublicKey, error) { return keys.ParsePublic(text) }

// ParsePrivate reads a firmware private key file's text.
func ParsePrivate(text []byte) (ed25519.PrivateKey, error) { return keys.ParsePrivate(text) }

// LoadPublic reads a firmware public key file (a regular file only: a FIFO or a device is
// refused before it is read).
func LoadPublic(path string) (ed25519.PublicKey, error) { return keys.LoadPublic(path) }

// LoadPrivate reads a firmware private key file; it refuses a file others than its owner
// may read (mode & 0o077 != 0).
func LoadPrivate(path string) (ed25519.PrivateKey, error) { return keys.LoadPrivate(path) }

// GenerateFiles draws a key pair from crypto/rand and writes dir/firmware.key (0600) and
// dir/firmware.pub (0644), never overwriting either; dir is created (0700) when missing.
func GenerateFiles(dir string) (ID, error) {
	return keys.Generate(dir, PrivateFile, PublicFile, "firmware", rand.Reader)
}
