package edkey

import (
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"fmt"
	"strings"
)

// MaxFileSize bounds a key file; real ones are under 200 bytes.
const MaxFileSize = 4096

// Family is one kind of key file.
type Family struct {
	// Name starts every error message ("ledger: key", "fwkey").
	Name string
	// Public and Private are the first words of the family's public and private key files.
	Public, Private string
	// Err is wrapped by every refusal of a key file's content (the family's ErrKeyFile).
	Err error
	// Others maps the first-word prefix of another family's key files to what to say of
	// such a file given here ("a ledger (operator) key, not a firmware key").
	Others map[string]string
	// NeedPrivate is added when a public key file is given where the private one is
	// needed (which file to give instead).
	NeedPrivate string
}

// MarshalPublic returns the key file text of pub.
func (f Family) MarshalPublic(pub ed25519.PublicKey, comment string) []byte {
	return marshal(f.Public, pub, comment)
}

// MarshalPrivate returns the key file text of priv; it holds the 32-byte seed.
func (f Family) MarshalPrivate(priv ed25519.PrivateKey, comment string) []byte {
	return marshal(f.Private, priv.Seed(), comment)
}

func marshal(typ string, b []byte, comment string) []byte {
	line := typ + " " + base64.StdEncoding.EncodeToString(b)
	if c := strings.Join(strings.Fields(comment), " "); c != "" {
		line += " " + c
	}
	return []byte(line + "\n")
}

// ParsePublic reads a public key file's text.
func (f Family) ParsePublic(text []byte) (ed25519.PublicKey, error) {
	b, err := f.parse(text, f.Public, ed25519.PublicKeySize)
	if err != nil {
		return nil, err
	}
	return ed25519.PublicKey(b), nil
}

// ParsePrivate reads a private key file's text.
func (f Family) ParsePrivate(text []byte) (ed25519.PrivateKey, error) {
	b, err := f.parse(text, f.Private, ed25519.SeedSize)
	if err != nil {
		return nil, err
	}
	return ed25519.NewKeyFromSeed(b), nil
}

func (f Family) parse(text []byte, typ string, size int) ([]byte, error) {
	if len(text) > MaxFileSize {
		return nil, f.errorf("%d bytes, more than %d", len(text), MaxFileSize)
	}
	line, rest, _ := bytes.Cut(text, []byte("\n"))
	if len(bytes.TrimSpace(rest)) != 0 {
		return nil, f.errorf("more than one line")
	}
	w := strings.Fields(string(line))
	if len(w) < 2 {
		return nil, f.errorf("want %q and a base64 key", typ)
	}
	if w[0] != typ {
		return nil, f.wrongType(w[0], typ)
	}
	b, err := base64.StdEncoding.Strict().DecodeString(w[1])
	if err != nil {
		return nil, f.errorf("bad base64")
	}
	if len(b) != size {
		return nil, f.errorf("%d bytes, want %d", len(b), size)
	}
	return b, nil
}

func (f Family) wrongType(got, want string) error {
	if got == f.Public || got == f.Private {
		return f.errorf("a %s where a %s is wanted", got, want)
	}
	for prefix, say := range f.Others {
		if strings.HasPrefix(got, prefix) {
			return f.errorf("%.40q is %s", got, say)
		}
	}
	return f.errorf("unknown key type %.40q, want %s", got, want)
}

// errorf is a refusal of a file's content: Name, the message, and Err.
func (f Family) errorf(format string, args ...any) error {
	return fmt.Errorf("%s: %s: %w", f.Name, fmt.Sprintf(format, args...), f.Err)
}

// Type is the first word of a key file's text ("" when there is none).
func Type(text []byte) string {
	w := strings.Fields(string(text[:min(len(text), 64)]))
	if len(w) == 0 {
		return ""
	}
	return w[0]
}
