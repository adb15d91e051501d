// Package bundletest builds small signed firmware bundles in memory for the tests of the
// packages that read them (bundle, slot, flash, posctl).
package bundletest

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"io"

	"github.com/packterm/pos/firmware/bundle"
	"github.com/packterm/pos/firmware/fwkey"
)

// Key is a firmware key pair generated for a test.
type Key struct {
	Pub  ed25519.PublicKey
	Priv ed25519.PrivateKey
}

// NewKey generates a key pair.
func NewKey() Key {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		panic(err)
	}
	return Key{pub, priv}
}

// Trust is a trust store holding k.
func (k Key) Trust() *fwkey.TrustStore { return fwkey.NewTrustStore(k.Pub) }

// Spec is what goes in a test bundle; zero fields get defaults.
type Spec struct {
	Version, MinVersion string         // default "1.0.0", "0.0.0"
	Target              *bundle.Target // default linux/arm v7 rpi
	Posd, Posctl        []byte         // default small fake contents
	Config              []byte
	Keys                [][]byte // operator key files; default one
	Extra               []bundle.Source
}

// DefaultTarget is the target test bundles are built for by default.
var DefaultTarget = bundle.Target{OS: "linux", Arch: "arm", ARM: 7, Board: "rpi"}

func or(b []byte, def string) []byte {
	if b == nil {
		return []byte(def)
	}
	return b
}

// Sources returns the spec's payload sources.
func (s Spec) Sources() []bundle.Source {
	src := func(t bundle.FileType, name string, b []byte) bundle.Source {
		return bundle.Source{Type: t, Name: name, Open: func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }}
	}
	srcs := []bundle.Source{
		src(bundle.Posd, "posd", or(s.Posd, "#!posd "+s.version()+"\n")),
		src(bundle.Posctl, "posctl", or(s.Posctl, "#!posctl\n")),
		src(bundle.Config, "posd.toml", or(s.Config, "[terminal]\nid = \"T1\"\n")),
	}
	keys := s.Keys
	if keys == nil {
		keys = [][]byte{[]byte("pos-ed25519-public AAAA operator\n")}
	}
	for i, k := range keys {
		srcs = append(srcs, src(bundle.OperatorKey, "operator-"+string(rune('a'+i))+".pub", k))
	}
	return append(srcs, s.Extra...)
}

func (s Spec) version() string {
	if s.Version == "" {
		return "1.0.0"
	}
	return s.Version
}

// Manifest builds the spec's manifest.
func (s Spec) Manifest() (*bundle.Manifest, error) {
	v, err := bundle.ParseVersion(s.version())
	if err != nil {
		return nil, err
	}
	minv := bundle.Version{}
	if s.MinVersion != "" {
		if minv, err = bundle.ParseVersion(s.MinVersion); err != nil {
			return nil, err
		}
	}
	t := DefaultTarget
	if s.Target != nil {
		t = *s.Target
	}
	return bundle.NewManifest(v, minv, t, s.Sources())
}

// Build returns the spec's bundle signed by k (unsigned when k.Priv is nil). It panics on
// a spec the bundle package refuses: test specs are meant to be valid.
func (k Key) Build(s Spec) []byte {
	m, err := s.Manifest()
	if err != nil {
		panic(err)
	}
	var b bytes.Buffer
	if err := bundle.Write(&b, m, s.Sources(), k.Priv); err != nil {
		panic(err)
	}
	return b.Bytes()
}
