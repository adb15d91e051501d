package ledger

import (
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"

	"github.com/packterm/pos/internal/regularfile"
)

// Operator limits statements (docs/ledger.md, "Money limits"): the only way a terminal's
// money limits change once it runs, over the configuration's [limits]. A statement is
// the four limits with a version and a scope (one terminal, or every terminal of a
// retailer), signed by an operator key the terminal trusts.
const (
	// LimitsStatementType is the first word of a limits statement.
	LimitsStatementType = "pos-operator-limits"
	// LimitsStatementFile is the installed statement's name in the terminal's data directory.
	LimitsStatementFile = "operator-limits.stmt"
	// MaxLimitsStatementSize bounds a statement file.
	MaxLimitsStatementSize = 1024
	// MaxLimit bounds each limit, in cents (the configuration's own bound, 1 000 000 €).
	MaxLimit = 1_000_000_00
	// limitsStatementFormat is the format number on the first line.
	limitsStatementFormat = 1
	maxScopeTerminalLen   = 32
)

// limitsStatementDomain prefixes the signed bytes: no other signed format of the project
// (ledger, status list, key statements) can stand for a limits statement, nor the reverse.
const limitsStatementDomain = "packterm operator limits statement v1\x00"

var (
	// ErrLimitsStatement is wrapped by every refusal of a limits statement's text.
	ErrLimitsStatement = errors.New("bad operator limits statement")
	// ErrLimitsScope: the statement is for another terminal or retailer.
	ErrLimitsScope = errors.New("operator limits statement for another terminal or retailer")
)

// Limits are a terminal's money limits, in cents, as the configuration's [limits] holds
// them: per ticket, per day, per ticket while the fleet is unreachable, and in all
// unconfirmed offline payouts.
type Limits struct {
	PerTicket, PerDay, OfflinePerTicket, OfflineTotal int64
}

// check applies the configuration's rules: each limit within 0..MaxLimit (per ticket and
// per day at least 1 cent: a zero would mean a default), per ticket within per day,
// offline within per ticket, offline total at least offline per ticket.
func (l Limits) check() error {
	switch {
	case l.PerTicket < 1 || l.PerDay < 1 || l.PerTicket > MaxLimit || l.PerDay > MaxLimit:
		return fmt.Errorf("pay_per_ticket and pay_per_day from 1 to %d cents", MaxLimit)
	case l.OfflinePerTicket < 0 || l.OfflineTotal < 0 || l.OfflinePerTicket > MaxLimit || l.OfflineTotal > MaxLimit:
		return fmt.Errorf("offline_per_ticket and offline_total from 0 to %d cents", MaxLimit)
	case l.PerTicket > l.PerDay:
		return fmt.Errorf("pay_per_ticket %d above pay_per_day %d", l.PerTicket, l.PerDay)
	case l.OfflinePerTicket > l.PerTicket:
		return fmt.Errorf("offline_per_ticket %d above pay_per_ticket %d", l.OfflinePerTicket, l.PerTicket)
	case l.OfflineTotal < l.OfflinePerTicket:
		return fmt.Errorf("offline_total %d below offline_per_ticket %d", l.OfflineTotal, l.OfflinePerTicket)
	}
	return nil
}

// LimitsStatement is a parsed limits statement. Parse has checked that it is whole (its
// signature verifies under its stated signer); Verify says whether that signer is trusted,
// For whether it is this terminal's.
type LimitsStatement struct {
	Version uint64
	// Terminal is the one terminal the statement is for; "" when it is for a retailer.
	Terminal string
	// Retailer is the retailer whose every terminal it is for; 0 when for a terminal.
	Retailer uint32
	Limits   Limits

	signer ed25519.PublicKey
	sig    []byte
	body   []byte // the signed text (without the domain)
}

// Signer is the id of the key that signed the statement.
func (s *LimitsStatement) Signer() KeyID { return IDOf(s.signer) }

// Scope says whom the statement is for: "terminal T" or "retailer N".
func (s *LimitsStatement) Scope() string {
	if s.Terminal != "" {
		return "terminal " + s.Terminal
	}
	return "retailer " + strconv.FormatUint(uint64(s.Retailer), 10)
}

// Verify checks that the statement was signed by a key of t (the trust in force).
func (s *LimitsStatement) Verify(t *TrustStore) error {
	msg := append([]byte(limitsStatementDomain), s.body...)
	return verifyBy(t, "limits statement", s.Signer(), msg, s.sig)
}

// For checks that the statement is for this terminal, or for its retailer.
func (s *LimitsStatement) For(terminal string, retailer uint32) error {
	if (s.Terminal != "" && s.Terminal == terminal) || (s.Terminal == "" && s.Retailer == retailer) {
		return nil
	}
	return fmt.Errorf("ledger: limits statement for %s, this is terminal %s of retailer %d: %w",
		s.Scope(), terminal, retailer, ErrLimitsScope)
}

func limitsErrorf(format string, args ...any) error {
	return fmt.Errorf("ledger: limits statement: %s: %w", fmt.Sprintf(format, args...), ErrLimitsStatement)
}

// limitsBody is the statement's text up to its signer line (included).
func limitsBody(s *LimitsStatement, signer ed25519.PublicKey) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s %d\nversion %d\n", LimitsStatementType, limitsStatementFormat, s.Version)
	if s.Terminal != "" {
		fmt.Fprintf(&b, "terminal %s\n", s.Terminal)
	} else {
		fmt.Fprintf(&b, "retailer %d\n", s.Retailer)
	}
	l := s.Limits
	fmt.Fprintf(&b, "pay_per_ticket %d\npay_per_day %d\noffline_per_ticket %d\noffline_total %d\n",
		l.PerTicket, l.PerDay, l.OfflinePerTicket, l.OfflineTotal)
	fmt.Fprintf(&b, "signer %s\n", base64.StdEncoding.EncodeToString(signer))
	return b.Bytes()
}

// checkFields refuses a statement whose version, scope or limits are out of the format.
func (s *LimitsStatement) checkFields() error {
	if s.Version == 0 {
		return limitsErrorf("version 0: versions start at 1")
	}
	if (s.Terminal == "") == (s.Retailer == 0) {
		return limitsErrorf("want exactly one of a terminal or a retailer (from 1)")
	}
	if s.Terminal != "" && !validScopeTerminal(s.Terminal) {
		return limitsErrorf("terminal id: want 1 to %d letters, digits, '-', '_' or '.'", maxScopeTerminalLen)
	}
	if err := s.Limits.check(); err != nil {
		return limitsErrorf("%v", err)
	}
	return nil
}

func validScopeTerminal(id string) bool {
	if id == "" || len(id) > maxScopeTerminalLen {
		return false
	}
	for _, r := range id {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.'
		if !ok {
			return false
		}
	}
	return true
}

// SignLimitsStatement returns the text of s (Version, Terminal or Retailer, Limits)
// signed with priv.
func SignLimitsStatement(s LimitsStatement, priv ed25519.PrivateKey) ([]byte, error) {
	if len(priv) != ed25519.PrivateKeySize {
		return nil, fmt.Errorf("ledger: limits statement: no operator private key: %w", ErrKeyFile)
	}
	if err := s.checkFields(); err != nil {
		return nil, err
	}
	body := limitsBody(&s, priv.Public().(ed25519.PublicKey))
	sig := ed25519.Sign(priv, append([]byte(limitsStatementDomain), body...))
	return fmt.Appendf(body, "signature %s\n", base64.StdEncoding.EncodeToString(sig)), nil
}

// ParseLimitsStatement reads a statement's text: the exact layout SignLimitsStatement
// writes (docs/ledger.md), limits within the configuration's rules, and a signature that
// verifies under the stated signer (a damaged or edited statement is refused here).
func ParseLimitsStatement(text []byte) (*LimitsStatement, error) {
	if len(text) > MaxLimitsStatementSize {
		return nil, limitsErrorf("%d bytes, more than %d", len(text), MaxLimitsStatementSize)
	}
	lines := strings.Split(string(text), "\n")
	if len(lines) != 10 || lines[9] != "" {
		return nil, limitsErrorf("want 9 lines, each ending with a new line")
	}
	if want := LimitsStatementType + " 1"; lines[0] != want {
		return nil, limitsErrorf("first line %.40q, want %q", lines[0], want)
	}
	s := &LimitsStatement{}
	var err error
	if s.Version, err = uintField(lines[1], "version ", 64); err != nil {
		return nil, err
	}
	if id, ok := strings.CutPrefix(lines[2], "terminal "); ok {
		s.Terminal = id
	} else if r, err := uintField(lines[2], "retailer ", 32); err == nil {
		s.Retailer = uint32(r)
	} else {
		return nil, limitsErrorf("third line: want \"terminal ID\" or \"retailer N\"")
	}
	for i, f := range []struct {
		name string
		v    *int64
	}{{"pay_per_ticket ", &s.Limits.PerTicket}, {"pay_per_day ", &s.Limits.PerDay},
		{"offline_per_ticket ", &s.Limits.OfflinePerTicket}, {"offline_total ", &s.Limits.OfflineTotal}} {
		v, err := uintField(lines[3+i], f.name, 40)
		if err != nil {
			return nil, err
		}
		*f.v = int64(v)
	}
	if err := s.checkFields(); err != nil {
		return nil, err
	}
	if s.signer, err = field(lines[7], "signer ", ed25519.PublicKeySize); err != nil {
		return nil, limitsErrorf("signer line: %v", err)
	}
	if s.sig, err = field(lines[8], "signature ", ed25519.SignatureSize); err != nil {
		return nil, limitsErrorf("signature line: %v", err)
	}
	s.body = text[:len(text)-len(lines[8])-1]
	if !bytes.Equal(s.body, limitsBody(s, s.signer)) {
		return nil, limitsErrorf("not in the canonical layout")
	}
	if !ed25519.Verify(s.signer, append([]byte(limitsStatementDomain), s.body...), s.sig) {
		return nil, limitsErrorf("the signature does not match the statement: damaged or edited")
	}
	return s, nil
}

// uintField reads "PREFIX N", N in decimal without leading zeros, within bits.
func uintField(line, prefix string, bits int) (uint64, error) {
	v, ok := strings.CutPrefix(line, prefix)
	if !ok || v == "" || (v[0] == '0' && v != "0") || len(v) > 20 {
		return 0, limitsErrorf("want %q and a number without leading zeros", strings.TrimSpace(prefix))
	}
	n, err := strconv.ParseUint(v, 10, bits)
	if err != nil {
		return 0, limitsErrorf("%s%.24q out of range", prefix, v)
	}
	return n, nil
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

// LoadLimitsStatement reads and parses a statement file (a regular file only).
func LoadLimitsStatement(path string) (*LimitsStatement, error) {
	text, err := regularfile.ReadFile(path, MaxLimitsStatementSize)
	if err != nil {
		return nil, fmt.Errorf("ledger: limits statement: %w", err)
	}
	s, err := ParseLimitsStatement(text)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// LoadLimits is the limits statement installed at path, checked as the terminal takes it
// in: whole, signed by a key of trust (the trust in force), for this terminal or its
// retailer. nil and no error when there is none; any other failure is an error (fail
// closed: a statement that is there is never skipped).
func LoadLimits(path string, trust *TrustStore, terminal string, retailer uint32) (*LimitsStatement, error) {
	s, err := LoadLimitsStatement(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	if err := s.Verify(trust); err != nil {
		return nil, err
	}
	if err := s.For(terminal, retailer); err != nil {
		return nil, err
	}
	return s, nil
}

// InstallLimitsStatement installs the statement file candidate at path (the terminal's
// LimitsStatementFile) after checking it as LoadLimits does, against inForce: its version
// must be above the installed statement's. Under the install lock of path's directory, as
// every install (installText); on any refusal the installed statement is left as it was.
// prev is the statement it replaced (nil: none).
func InstallLimitsStatement(path, candidate string, inForce *TrustStore, terminal string, retailer uint32) (res Installed, prev *LimitsStatement, err error) {
	text, err := regularfile.ReadFile(candidate, MaxLimitsStatementSize)
	if err != nil {
		return Installed{}, nil, fmt.Errorf("ledger: limits statement: %w", err)
	}
	s, err := ParseLimitsStatement(text)
	if err != nil {
		return Installed{}, nil, err
	}
	if err := s.Verify(inForce); err != nil {
		return Installed{}, nil, err
	}
	if err := s.For(terminal, retailer); err != nil {
		return Installed{}, nil, err
	}
	res, err = installText(path, text, s.Version, "limits statement", MaxLimitsStatementSize, func() (uint64, error) {
		old, err := LoadLimitsStatement(path)
		if err != nil {
			return 0, err
		}
		prev = old
		return old.Version, nil
	})
	return res, prev, err
}
