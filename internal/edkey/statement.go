package edkey

import (
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Bounds of a key statement.
const (
	MaxStatementSize = 8192
	MaxStatementKeys = 16
)

// StatementFormat is the format number on a statement's first line.
const StatementFormat = 1

// StatementKind is one family's key statement: the signed, versioned full set of the
// public keys a terminal trusts for that use. Its text is
//
//	TYPE 1
//	version N
//	PUBLIC-TYPE BASE64 ID          one line per key, 1 to 16, sorted by id, distinct
//	signer BASE64                  the signing public key
//	signature BASE64               Ed25519 over Domain ‖ every byte before this line
//
// with "\n" line ends and nothing else: one set has exactly one text.
type StatementKind struct {
	// Name starts every error message ("ledger: key statement").
	Name string
	// Type is the first word of the statement ("pos-operator-keys").
	Type string
	// Domain prefixes the signed bytes; distinct per kind, never a prefix of another
	// signed format of the project.
	Domain string
	// Keys is the family whose public keys the statement lists.
	Keys Family
	// Err is wrapped by every refusal of a statement's text.
	Err error
}

// Statement is a parsed key statement. Parse has checked that Sig verifies under Signer
// (the file is whole); whether Signer is trusted is Verify's question.
type Statement struct {
	Version uint64
	Keys    []ed25519.PublicKey // sorted by ID, distinct
	Signer  ed25519.PublicKey
	Sig     []byte
	body    []byte // the signed text (without Domain)
}

// SignerID is the id of the key that signed s.
func (s *Statement) SignerID() ID { return IDOf(s.Signer) }

// Set is the statement's keys as a Set.
func (s *Statement) Set() Set { return NewSet(s.Keys...) }

// IDs lists the statement's key ids in order.
func (s *Statement) IDs() []ID {
	ids := make([]ID, len(s.Keys))
	for i, k := range s.Keys {
		ids[i] = IDOf(k)
	}
	return ids
}

// Verify checks that s was signed by a key of trust.
func (s *Statement) Verify(trust Set, k StatementKind) Verdict {
	return trust.Verify(s.SignerID(), k.message(s.body), s.Sig)
}

func (k StatementKind) message(body []byte) []byte {
	return append([]byte(k.Domain), body...)
}

func (k StatementKind) errorf(format string, args ...any) error {
	return fmt.Errorf("%s: %s: %w", k.Name, fmt.Sprintf(format, args...), k.Err)
}

// Sign returns the statement text of version and keys (in any order; sorted, and
// duplicates refused) signed with priv.
func (k StatementKind) Sign(version uint64, keys []ed25519.PublicKey, priv ed25519.PrivateKey) ([]byte, error) {
	if version == 0 {
		return nil, k.errorf("version 0: versions start at 1")
	}
	if len(keys) == 0 || len(keys) > MaxStatementKeys {
		return nil, k.errorf("%d keys, want 1 to %d", len(keys), MaxStatementKeys)
	}
	sorted := slices.Clone(keys)
	for _, key := range sorted {
		if len(key) != ed25519.PublicKeySize {
			return nil, k.errorf("a key of %d bytes", len(key))
		}
	}
	slices.SortFunc(sorted, func(a, b ed25519.PublicKey) int {
		ia, ib := IDOf(a), IDOf(b)
		return bytes.Compare(ia[:], ib[:])
	})
	var body bytes.Buffer
	fmt.Fprintf(&body, "%s %d\nversion %d\n", k.Type, StatementFormat, version)
	for i, key := range sorted {
		if i > 0 && IDOf(sorted[i-1]) == IDOf(key) {
			return nil, k.errorf("key %v listed twice", IDOf(key))
		}
		body.Write(k.Keys.MarshalPublic(key, IDOf(key).String()))
	}
	pub := priv.Public().(ed25519.PublicKey)
	fmt.Fprintf(&body, "signer %s\n", base64.StdEncoding.EncodeToString(pub))
	sig := ed25519.Sign(priv, k.message(body.Bytes()))
	fmt.Fprintf(&body, "signature %s\n", base64.StdEncoding.EncodeToString(sig))
	return body.Bytes(), nil
}

// Parse reads a statement's text: the exact layout above, and a signature that verifies
// under the stated signer (a damaged or edited statement is refused here).
func (k StatementKind) Parse(text []byte) (*Statement, error) {
	if len(text) > MaxStatementSize {
		return nil, k.errorf("%d bytes, more than %d", len(text), MaxStatementSize)
	}
	if len(text) == 0 || text[len(text)-1] != '\n' {
		return nil, k.errorf("empty or not ending with a new line")
	}
	lines := strings.Split(string(text[:len(text)-1]), "\n")
	if len(lines) < 5 {
		return nil, k.errorf("%d lines, want a header, a version, keys, a signer and a signature", len(lines))
	}
	if want := k.Type + " " + strconv.Itoa(StatementFormat); lines[0] != want {
		if t := Type([]byte(lines[0])); t != k.Type {
			return nil, k.errorf("not a %s statement (first word %.40q)", k.Type, t)
		}
		return nil, k.errorf("first line %.40q, want %q", lines[0], want)
	}
	st := &Statement{}
	v, ok := strings.CutPrefix(lines[1], "version ")
	if !ok || v == "" || v[0] == '0' || len(v) > 20 {
		return nil, k.errorf("second line: want \"version N\", N from 1 without leading zeros")
	}
	var err error
	if st.Version, err = strconv.ParseUint(v, 10, 64); err != nil {
		return nil, k.errorf("version %.24q", v)
	}
	keyLines := lines[2 : len(lines)-2]
	if len(keyLines) > MaxStatementKeys {
		return nil, k.errorf("%d keys, at most %d", len(keyLines), MaxStatementKeys)
	}
	for i, line := range keyLines {
		key, err := k.Keys.ParsePublic([]byte(line + "\n"))
		if err != nil {
			return nil, fmt.Errorf("%s: key line %d: %w: %w", k.Name, i+1, err, k.Err)
		}
		id := IDOf(key)
		if line != strings.TrimSuffix(string(k.Keys.MarshalPublic(key, id.String())), "\n") {
			return nil, k.errorf("key line %d: want %q, the key and its id, single spaces", i+1, k.Keys.Public+" BASE64 "+id.String())
		}
		if i > 0 {
			prev := IDOf(st.Keys[i-1])
			if bytes.Compare(prev[:], id[:]) >= 0 {
				return nil, k.errorf("key line %d: keys not sorted by id, or listed twice", i+1)
			}
		}
		st.Keys = append(st.Keys, key)
	}
	if st.Signer, err = field(lines[len(lines)-2], "signer ", ed25519.PublicKeySize); err != nil {
		return nil, k.errorf("signer line: %v", err)
	}
	if st.Sig, err = field(lines[len(lines)-1], "signature ", ed25519.SignatureSize); err != nil {
		return nil, k.errorf("signature line: %v", err)
	}
	st.body = text[:len(text)-len(lines[len(lines)-1])-1]
	if !ed25519.Verify(st.Signer, k.message(st.body), st.Sig) {
		return nil, k.errorf("the signature does not match the statement: damaged or edited")
	}
	return st, nil
}

// field decodes "PREFIX BASE64" of n bytes (strict base64, canonical).
func field(line, prefix string, n int) ([]byte, error) {
	s, ok := strings.CutPrefix(line, prefix)
	if !ok {
		return nil, fmt.Errorf("want %q and base64", strings.TrimSpace(prefix))
	}
	b, err := base64.StdEncoding.Strict().DecodeString(s)
	if err != nil || len(b) != n || base64.StdEncoding.EncodeToString(b) != s {
		return nil, fmt.Errorf("want %d bytes in base64", n)
	}
	return b, nil
}
