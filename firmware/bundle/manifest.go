package bundle

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"

	"github.com/packterm/pos/internal/strictjson"
)

// FormatVersion is the bundle format this package reads and writes.
const FormatVersion = 1

// Limits: the manifest, the number of files and each file's size by type.
const (
	MaxManifestSize = 64 << 10
	MaxFiles        = 24
	MaxBinarySize   = 64 << 20 // posd, posctl
	MaxConfigSize   = 64 << 10
	MaxKeySize      = 4 << 10
	MaxOperatorKeys = 16
)

// Errors wrapped by every refusal.
var (
	ErrFormat   = errors.New("bundle: not a firmware bundle")
	ErrManifest = errors.New("bundle: bad manifest")
	ErrHash     = errors.New("bundle: payload does not match the manifest")
	ErrUnsigned = errors.New("bundle: unsigned (sign it with posctl fw sign)")
)

// FileType is what a payload file is; the set is closed.
type FileType string

// Payload file types.
const (
	Posd        FileType = "posd"         // the terminal daemon
	Posctl      FileType = "posctl"       // the technician tool
	Config      FileType = "config"       // the default configuration
	OperatorKey FileType = "operator-key" // a trusted operator (ledger) public key file
)

// maxSize is the largest file of type t, 0 for an unknown type.
func (t FileType) maxSize() int64 {
	switch t {
	case Posd, Posctl:
		return MaxBinarySize
	case Config:
		return MaxConfigSize
	case OperatorKey:
		return MaxKeySize
	}
	return 0
}

// Target is the hardware a bundle is built for. Arch is a GOARCH (arm, arm64, amd64…);
// ARM is the GOARM level (6 or 7) for arch arm and 0 otherwise; Board names the board
// profile (e.g. "rpi").
type Target struct {
	OS    string `json:"os"`
	Arch  string `json:"arch"`
	ARM   int    `json:"arm,omitempty"`
	Board string `json:"board"`
}

// String is e.g. "linux/arm v7 rpi".
func (t Target) String() string {
	s := t.OS + "/" + t.Arch
	if t.ARM != 0 {
		s += fmt.Sprintf(" v%d", t.ARM)
	}
	return s + " " + t.Board
}

// File is one payload file: its type, its name in the slot, its size and SHA-256 (hex).
type File struct {
	Type   FileType `json:"type"`
	Name   string   `json:"name"`
	Size   int64    `json:"size"`
	SHA256 string   `json:"sha256"`
}

// Sum is the file's SHA-256 decoded (valid once the manifest has been checked).
func (f File) Sum() [32]byte {
	var s [32]byte
	hex.Decode(s[:], []byte(f.SHA256))
	return s
}

// Manifest describes a bundle. MinVersion is the oldest installed version the bundle may
// replace ("0.0.0": any).
type Manifest struct {
	Format     int     `json:"format"`
	Version    Version `json:"version"`
	MinVersion Version `json:"min_version"`
	Target     Target  `json:"target"`
	Files      []File  `json:"files"`
}

// PayloadSize is the sum of the file sizes.
func (m *Manifest) PayloadSize() int64 {
	var n int64
	for _, f := range m.Files {
		n += f.Size
	}
	return n
}

// Find returns the first file of type t.
func (m *Manifest) Find(t FileType) (File, bool) {
	for _, f := range m.Files {
		if f.Type == t {
			return f, true
		}
	}
	return File{}, false
}

var (
	nameRE   = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)
	wordRE   = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,31}$`)
	sha256RE = regexp.MustCompile(`^[0-9a-f]{64}$`)
)

// Check verifies every rule of a manifest: format, target, file types, names, sizes, hashes.
func (m *Manifest) Check() error {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("bundle: manifest: "+format+": %w", append(a, ErrManifest)...)
	}
	if m.Format != FormatVersion {
		return bad("format %d, want %d", m.Format, FormatVersion)
	}
	if m.Version.Less(m.MinVersion) {
		return bad("min_version %v is newer than version %v", m.MinVersion, m.Version)
	}
	t := m.Target
	if !wordRE.MatchString(t.OS) || !wordRE.MatchString(t.Arch) || !wordRE.MatchString(t.Board) {
		return bad("target %.80q: os, arch and board must be short lower-case words", t.String())
	}
	if (t.Arch == "arm") != (t.ARM == 6 || t.ARM == 7) || (t.Arch != "arm" && t.ARM != 0) {
		return bad("target %s: arm level must be 6 or 7 for arch arm and absent otherwise", t)
	}
	if len(m.Files) == 0 || len(m.Files) > MaxFiles {
		return bad("%d files, want 1 to %d", len(m.Files), MaxFiles)
	}
	count := map[FileType]int{}
	names := map[string]bool{}
	for i, f := range m.Files {
		max := f.Type.maxSize()
		if max == 0 {
			return bad("file %d: unknown type %.40q", i, f.Type)
		}
		if !nameRE.MatchString(f.Name) || f.Name == "manifest.json" {
			return bad("file %d: bad name %.80q", i, f.Name)
		}
		if names[f.Name] {
			return bad("file %d: name %q twice", i, f.Name)
		}
		names[f.Name] = true
		if f.Size < 0 || f.Size > max {
			return bad("file %s: size %d out of 0..%d for a %s", f.Name, f.Size, max, f.Type)
		}
		if !sha256RE.MatchString(f.SHA256) {
			return bad("file %s: sha256 must be 64 lower-case hex digits", f.Name)
		}
		count[f.Type]++
	}
	for _, t := range []FileType{Posd, Posctl, Config} {
		if count[t] != 1 {
			return bad("%d %s files, want exactly 1", count[t], t)
		}
	}
	if n := count[OperatorKey]; n < 1 || n > MaxOperatorKeys {
		return bad("%d operator keys, want 1 to %d", n, MaxOperatorKeys)
	}
	return nil
}

// ParseManifest decodes and checks a manifest. It is strict JSON (internal/strictjson):
// a key given twice, a key that differs from a field's name only by case ("VERSION"), an
// unknown key or trailing data, at any level (target, files[]), are errors, so that every
// reader of a signed manifest sees the same values; then anything Check refuses is an
// error.
func ParseManifest(b []byte) (*Manifest, error) {
	if len(b) > MaxManifestSize {
		return nil, fmt.Errorf("bundle: manifest: %d bytes, more than %d: %w", len(b), MaxManifestSize, ErrManifest)
	}
	var m Manifest
	if err := strictjson.Unmarshal(b, &m); err != nil {
		if errors.Is(err, ErrManifest) {
			return nil, err
		}
		return nil, fmt.Errorf("bundle: manifest: %w: %w", err, ErrManifest)
	}
	if err := m.Check(); err != nil {
		return nil, err
	}
	return &m, nil
}

// Marshal encodes a checked manifest.
func (m *Manifest) Marshal() ([]byte, error) {
	if err := m.Check(); err != nil {
		return nil, err
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("bundle: manifest: %w", err)
	}
	return append(b, '\n'), nil
}
