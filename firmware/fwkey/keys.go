package fwkey

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
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
const MaxFileSize = 4096

// ErrKeyFile is wrapped by every refusal of a key file's content.
var ErrKeyFile = errors.New("fwkey: bad key file")

// ID names a public key: the first 8 bytes of its SHA-256.
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

// MarshalPublic returns the key file text of pub.
func MarshalPublic(pub ed25519.PublicKey, comment string) []byte {
	return marshal(PublicType, pub, comment)
}

// MarshalPrivate returns the key file text of priv (its 32-byte seed).
func MarshalPrivate(priv ed25519.PrivateKey, comment string) []byte {
	return marshal(PrivateType, priv.Seed(), comment)
}

func marshal(typ string, b []byte, comment string) []byte {
	line := typ + " " + base64.StdEncoding.EncodeToString(b)
	if c := strings.Join(strings.Fields(comment), " "); c != "" {
		line += " " + c
	}
	return []byte(line + "\n")
}

// ParsePublic reads a firmware public key file's text.
func ParsePublic(text []byte) (ed25519.PublicKey, error) {
	b, err := parse(text, PublicType, ed25519.PublicKeySize)
	if err != nil {
		return nil, err
	}
	return ed25519.PublicKey(b), nil
}

// ParsePrivate reads a firmware private key file's text.
func ParsePrivate(text []byte) (ed25519.PrivateKey, error) {
	b, err := parse(text, PrivateType, ed25519.SeedSize)
	if err != nil {
		return nil, err
	}
	return ed25519.NewKeyFromSeed(b), nil
}

func parse(text []byte, typ string, size int) ([]byte, error) {
	if len(text) > MaxFileSize {
		return nil, fmt.Errorf("fwkey: %d bytes, more than %d: %w", len(text), MaxFileSize, ErrKeyFile)
	}
	line, rest, _ := bytes.Cut(text, []byte("\n"))
	if len(bytes.TrimSpace(rest)) != 0 {
		return nil, fmt.Errorf("fwkey: more than one line: %w", ErrKeyFile)
	}
	f := strings.Fields(string(line))
	if len(f) < 2 {
		return nil, fmt.Errorf("fwkey: want %q and a base64 key: %w", typ, ErrKeyFile)
	}
	switch {
	case f[0] == typ:
	case f[0] == PublicType || f[0] == PrivateType:
		return nil, fmt.Errorf("fwkey: a %s where a %s is wanted: %w", f[0], typ, ErrKeyFile)
	case strings.HasPrefix(f[0], "pos-ed25519-"):
		return nil, fmt.Errorf("fwkey: %.40q is a ledger (operator) key, not a firmware key: %w", f[0], ErrKeyFile)
	default:
		return nil, fmt.Errorf("fwkey: unknown key type %.40q, want %s: %w", f[0], typ, ErrKeyFile)
	}
	b, err := base64.StdEncoding.Strict().DecodeString(f[1])
	if err != nil {
		return nil, fmt.Errorf("fwkey: bad base64: %w", ErrKeyFile)
	}
	if len(b) != size {
		return nil, fmt.Errorf("fwkey: %d bytes, want %d: %w", len(b), size, ErrKeyFile)
	}
	return b, nil
}

// readSmall reads at most MaxFileSize+1 bytes of path.
func readSmall(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, MaxFileSize+1))
}

// LoadPublic reads a firmware public key file.
func LoadPublic(path string) (ed25519.PublicKey, error) {
	text, err := readSmall(path)
	if err != nil {
		return nil, fmt.Errorf("fwkey: load public key: %w", err)
	}
	k, err := ParsePublic(text)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return k, nil
}

// LoadPrivate reads a firmware private key file; it refuses a file others than its owner
// may read (mode & 0o077 != 0).
func LoadPrivate(path string) (ed25519.PrivateKey, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("fwkey: load private key: %w", err)
	}
	if st.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("fwkey: load private key: %s: mode %v lets others read it (want 0600): %w", path, st.Mode().Perm(), ErrKeyFile)
	}
	text, err := readSmall(path)
	if err != nil {
		return nil, fmt.Errorf("fwkey: load private key: %w", err)
	}
	k, err := ParsePrivate(text)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return k, nil
}

// GenerateFiles draws a key pair from crypto/rand and writes dir/firmware.key (0600) and
// dir/firmware.pub (0644), never overwriting either; dir is created (0700) when missing.
func GenerateFiles(dir string) (ID, error) {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return ID{}, fmt.Errorf("fwkey: generate: %w", err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return ID{}, fmt.Errorf("fwkey: generate: %w", err)
	}
	privPath, pubPath := filepath.Join(dir, PrivateFile), filepath.Join(dir, PublicFile)
	for _, p := range []string{privPath, pubPath} {
		if _, err := os.Lstat(p); err == nil {
			return ID{}, fmt.Errorf("fwkey: generate: %s exists, not overwritten: %w", p, fs.ErrExist)
		}
	}
	id := IDOf(pub)
	comment := "firmware " + id.String()
	if err := writeNew(privPath, MarshalPrivate(priv, comment), 0o600); err != nil {
		return ID{}, err
	}
	if err := writeNew(pubPath, MarshalPublic(pub, comment), 0o644); err != nil {
		os.Remove(privPath)
		return ID{}, err
	}
	return id, nil
}

func writeNew(path string, data []byte, perm os.FileMode) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return fmt.Errorf("fwkey: write %s: %w", path, err)
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return fmt.Errorf("fwkey: write %s: %w", path, err)
	}
	return nil
}
