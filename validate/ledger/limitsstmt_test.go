package ledger

import (
	"bytes"
	"crypto/ed25519"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

var testLimits = Limits{PerTicket: 30_00, PerDay: 50_00, OfflinePerTicket: 20_00, OfflineTotal: 40_00}

func signLimits(t testing.TB, s LimitsStatement, priv ed25519.PrivateKey) []byte {
	t.Helper()
	b, err := SignLimitsStatement(s, priv)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestLimitsStatementRoundTrip(t *testing.T) {
	pub, priv := testKey(t)
	for _, in := range []LimitsStatement{
		{Version: 3, Terminal: "T-0042", Limits: testLimits},
		{Version: 1, Retailer: 7, Limits: Limits{PerTicket: 1, PerDay: 1}},
	} {
		text := signLimits(t, in, priv)
		s, err := ParseLimitsStatement(text)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		if s.Version != in.Version || s.Terminal != in.Terminal || s.Retailer != in.Retailer || s.Limits != in.Limits {
			t.Fatalf("parsed %+v, signed %+v", s, in)
		}
		if err := s.Verify(NewTrustStore(pub)); err != nil {
			t.Fatal(err)
		}
		if again := signLimits(t, *s, priv); !bytes.Equal(again, text) {
			t.Fatalf("one statement, two texts:\n%s\n%s", text, again)
		}
	}
}

// Each refusal of the format, and of the limits' own rules (a zero per ticket would
// become the terminal's default).
func TestLimitsStatementRefused(t *testing.T) {
	_, priv := testKey(t)
	for name, s := range map[string]LimitsStatement{
		"version 0":        {Terminal: "T1", Limits: testLimits},
		"no scope":         {Version: 1, Limits: testLimits},
		"both scopes":      {Version: 1, Terminal: "T1", Retailer: 2, Limits: testLimits},
		"terminal spaces":  {Version: 1, Terminal: "T 1", Limits: testLimits},
		"zero per ticket":  {Version: 1, Terminal: "T1", Limits: Limits{PerDay: 10}},
		"ticket above day": {Version: 1, Terminal: "T1", Limits: Limits{PerTicket: 11, PerDay: 10}},
		"offline above":    {Version: 1, Terminal: "T1", Limits: Limits{PerTicket: 10, PerDay: 10, OfflinePerTicket: 11, OfflineTotal: 11}},
		"total below":      {Version: 1, Terminal: "T1", Limits: Limits{PerTicket: 10, PerDay: 10, OfflinePerTicket: 5, OfflineTotal: 4}},
		"above max":        {Version: 1, Terminal: "T1", Limits: Limits{PerTicket: MaxLimit + 1, PerDay: MaxLimit + 1}},
	} {
		if _, err := SignLimitsStatement(s, priv); !errors.Is(err, ErrLimitsStatement) {
			t.Errorf("%s: signed: %v", name, err)
		}
	}
	good := signLimits(t, LimitsStatement{Version: 2, Terminal: "T1", Limits: testLimits}, priv)
	for name, text := range map[string][]byte{
		"raised":        bytes.Replace(good, []byte("pay_per_day 5000"), []byte("pay_per_day 9000"), 1),
		"leading zero":  bytes.Replace(good, []byte("version 2"), []byte("version 02"), 1),
		"truncated":     good[:len(good)-1],
		"extra line":    append(bytes.Clone(good), "\n"...),
		"crlf":          bytes.ReplaceAll(good, []byte("\n"), []byte("\r\n")),
		"key statement": []byte(KeyStatementType + " 1\n"),
	} {
		if _, err := ParseLimitsStatement(text); !errors.Is(err, ErrLimitsStatement) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// Issue 47, the technician (or the retailer) signs a statement raising the limits with a
// key of their own: whole, so it parses, but no key in force signed it.
func TestLimitsStatementForgedRefused(t *testing.T) {
	dir := t.TempDir()
	opPub, opPriv := testKey(t)
	_, ownPriv := testKey(t)
	trust := NewTrustStore(opPub)
	cand := filepath.Join(dir, "cand.stmt")
	path := filepath.Join(dir, LimitsStatementFile)
	os.WriteFile(cand, signLimits(t, LimitsStatement{Version: 9, Terminal: "T1",
		Limits: Limits{PerTicket: MaxLimit, PerDay: MaxLimit, OfflinePerTicket: MaxLimit, OfflineTotal: MaxLimit}}, ownPriv), 0o644)
	if _, _, err := InstallLimitsStatement(path, cand, trust, "T1", 1); !errors.Is(err, ErrUntrustedKey) {
		t.Fatalf("own key's statement installed: %v", err)
	}
	os.Rename(cand, path) // root copies it in place
	if s, err := LoadLimits(path, trust, "T1", 1); !errors.Is(err, ErrUntrustedKey) || s != nil {
		t.Fatalf("own key's statement loaded: %v", err)
	}
	// The operator's, for another terminal or retailer, is refused too.
	os.WriteFile(cand, signLimits(t, LimitsStatement{Version: 1, Retailer: 2, Limits: testLimits}, opPriv), 0o644)
	if _, _, err := InstallLimitsStatement(filepath.Join(dir, "x.stmt"), cand, trust, "T1", 1); !errors.Is(err, ErrLimitsScope) {
		t.Fatalf("another retailer's statement: %v", err)
	}
}

// Versions only go up at install; LoadLimits finds none without error, and takes the
// installed one.
func TestInstallLimitsStatement(t *testing.T) {
	dir := t.TempDir()
	pub, priv := testKey(t)
	trust := NewTrustStore(pub)
	path := filepath.Join(dir, LimitsStatementFile)
	if s, err := LoadLimits(path, trust, "T1", 1); s != nil || err != nil {
		t.Fatalf("none installed: %v %v", s, err)
	}
	put := func(v uint64, l Limits) string {
		p := filepath.Join(dir, fmt.Sprintf("v%d.stmt", v))
		os.WriteFile(p, signLimits(t, LimitsStatement{Version: v, Retailer: 1, Limits: l}, priv), 0o644)
		return p
	}
	if res, prev, err := InstallLimitsStatement(path, put(2, testLimits), trust, "T1", 1); err != nil || res.HadPrevious || prev != nil {
		t.Fatalf("first: %+v %v %v", res, prev, err)
	}
	lower := Limits{PerTicket: 10_00, PerDay: 20_00}
	for _, v := range []uint64{1, 2} {
		if _, _, err := InstallLimitsStatement(path, put(v, lower), trust, "T1", 1); !errors.Is(err, ErrOlderVersion) {
			t.Fatalf("version %d over 2: %v", v, err)
		}
	}
	res, prev, err := InstallLimitsStatement(path, put(3, lower), trust, "T1", 1)
	if err != nil || res.Previous != 2 || prev == nil || prev.Limits != testLimits {
		t.Fatalf("newer: %+v %+v %v", res, prev, err)
	}
	if s, err := LoadLimits(path, trust, "T1", 1); err != nil || s.Version != 3 || s.Limits != lower {
		t.Fatalf("loaded %+v %v", s, err)
	}
	os.WriteFile(path, []byte("pos-operator-limits 1\n"), 0o644) // damaged: never skipped
	if _, err := LoadLimits(path, trust, "T1", 1); !errors.Is(err, ErrLimitsStatement) {
		t.Fatalf("damaged: %v", err)
	}
}

// FuzzLimitsStatement: any text is refused with ErrLimitsStatement or parses into a
// statement within the limits' rules that signs back to the same text's layout.
func FuzzLimitsStatement(f *testing.F) {
	for _, s := range limitsStatementSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		s, err := ParseLimitsStatement(text)
		if err != nil {
			if !errors.Is(err, ErrLimitsStatement) {
				t.Fatalf("unwrapped error: %v", err)
			}
			return
		}
		if err := s.checkFields(); err != nil {
			t.Fatalf("accepted %+v: %v", s, err)
		}
		if !bytes.Equal(limitsBody(s, s.signer), s.body) {
			t.Fatal("accepted a text not in the canonical layout")
		}
		if err := s.Verify(NewTrustStore()); !errors.Is(err, ErrNoTrustedKey) {
			t.Fatalf("verified against no key: %v", err)
		}
	})
}

// limitsStatementSeeds are statements signed by a key drawn now (nothing private is
// checked in).
func limitsStatementSeeds(t testing.TB) [][]byte {
	_, priv := testKey(t)
	one := signLimits(t, LimitsStatement{Version: 1, Terminal: "T-0042", Limits: testLimits}, priv)
	two := signLimits(t, LimitsStatement{Version: 12, Retailer: 7, Limits: Limits{PerTicket: 1, PerDay: MaxLimit}}, priv)
	return [][]byte{one, two, one[:len(one)/2], bytes.Replace(two, []byte("retailer 7"), []byte("retailer 0"), 1)}
}

// TestWriteLimitsStatementCorpus rewrites testdata/fuzz/FuzzLimitsStatement when run with
// -run TestWriteLimitsStatementCorpus -update-corpus.
func TestWriteLimitsStatementCorpus(t *testing.T) {
	if !*updateCorpus {
		t.Skip("run with -update-corpus to rewrite the seed corpus")
	}
	dir := filepath.Join("testdata", "fuzz", "FuzzLimitsStatement")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i, s := range limitsStatementSeeds(t) {
		text := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", s)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("seed%d", i+1)), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
