package techcard

import (
	"errors"
	"strings"
	"testing"
)

func TestCardRoundTrip(t *testing.T) {
	text, err := Encode([]byte("TECH-7Q2M-91XD-44PL"))
	if err != nil || text != "POSTECH1:TECH-7Q2M-91XD-44PL" {
		t.Fatalf("%q %v", text, err)
	}
	if tok, ok := Decode(text); !ok || tok != "TECH-7Q2M-91XD-44PL" {
		t.Errorf("decode %q %v", tok, ok)
	}
}

// TestNotACard: the terminal's codes, a stray label, the bare token, garbage and the prefix
// alone are no card.
func TestNotACard(t *testing.T) {
	for _, s := range []string{"", "0012345678", "00N0Y4G2VTPVXVR14D2PF2DBS", "TECH-7Q2M-91XD-44PL", "POSTECH1:", "postech1:abc",
		"POSTECH2:abc", " POSTECH1:abc", "POSTECH1:ab\x00c", "POSTECH1: abc", "POSTECH1:" + strings.Repeat("x", MaxToken+1), "POSTECH1:\xff"} {
		if tok, ok := Decode(s); ok {
			t.Errorf("%q read as a card with token %q", s, tok)
		}
	}
	for _, tok := range []string{"", "a\nb", " pad", strings.Repeat("x", MaxToken+1)} {
		if _, err := Encode([]byte(tok)); !errors.Is(err, ErrToken) {
			t.Errorf("token %q: %v", tok, err)
		}
	}
}

// FuzzDecode: any text is decoded without a panic; a card's token encodes back to it.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{"POSTECH1:TECH-0042", "0012345678", "POSTECH1:", "POSTECH1:a b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tok, ok := Decode(s)
		if !ok {
			return
		}
		back, err := Encode([]byte(tok))
		if err != nil || back != s {
			t.Fatalf("%q: token %q encodes as %q, %v", s, tok, back, err)
		}
	})
}
