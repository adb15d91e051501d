package strictjson

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode"
)

type target struct {
	OS   string `json:"os"`
	Arch string `json:"arch"`
}

type file struct {
	Name string `json:"name"`
	Size int64  `json:"size"`
}

type selfDecoding string

func (s *selfDecoding) UnmarshalJSON(b []byte) error {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*s = selfDecoding(b)
	return nil
}

type manifest struct {
	Version string            `json:"version"`
	Target  target            `json:"target"`
	Files   []file            `json:"files"`
	Labels  map[string]string `json:"labels,omitempty"`
	Extra   any               `json:"extra,omitempty"`
	Self    selfDecoding      `json:"self,omitempty"`
	Skipped string            `json:"-"`
	target2
}

type target2 struct {
	Board string `json:"board"`
}

func TestCheck(t *testing.T) {
	for _, c := range []struct {
		name, doc string
		want      error
	}{
		{"good", `{"version":"1.0.0","target":{"os":"linux","arch":"arm"},"board":"rpi","files":[{"name":"a","size":1}],"labels":{"a":"x","A":"y"}}`, nil},
		{"duplicate", `{"version":"1.0.0","version":"2.0.0"}`, ErrDuplicateKey},
		{"case duplicate", `{"version":"1.0.0","VERSION":"2.0.0"}`, ErrDuplicateKey},
		{"case only", `{"VERSION":"2.0.0"}`, ErrKeyCase},
		{"kelvin and long s", `{"verſion":"2.0.0"}`, ErrKeyCase},
		{"nested duplicate", `{"target":{"os":"linux","os":"plan9"}}`, ErrDuplicateKey},
		{"nested case", `{"target":{"OS":"linux"}}`, ErrKeyCase},
		{"in an array", `{"files":[{"name":"a"},{"name":"b","Name":"c"}]}`, ErrDuplicateKey},
		{"array case", `{"files":[{"SIZE":1}]}`, ErrKeyCase},
		{"unknown", `{"colour":"red"}`, ErrUnknownKey},
		{"skipped field", `{"Skipped":"x"}`, ErrUnknownKey},
		{"embedded", `{"Board":"x"}`, ErrKeyCase},
		{"map duplicate", `{"labels":{"a":"x","a":"y"}}`, ErrDuplicateKey},
		{"any duplicate", `{"extra":{"k":1,"k":2}}`, ErrDuplicateKey},
		{"any case duplicate", `{"extra":[{"k":1,"K":2}]}`, ErrDuplicateKey},
		{"self-decoding duplicate", `{"self":{"k":1,"k":2}}`, ErrDuplicateKey},
		{"trailing", `{"version":"1"} {}`, ErrSyntax},
		{"truncated", `{"version":`, ErrSyntax},
		{"deep", `{"extra":` + deep(100) + `}`, ErrSyntax},
	} {
		t.Run(c.name, func(t *testing.T) {
			var m manifest
			err := Unmarshal([]byte(c.doc), &m)
			if c.want == nil && err != nil || c.want != nil && !errors.Is(err, c.want) {
				t.Fatalf("%s: %v, want %v", c.doc, err, c.want)
			}
		})
	}
}

// TestPlainDecoderIsLax: encoding/json itself takes what Check refuses (why Check).
func TestPlainDecoderIsLax(t *testing.T) {
	var m manifest
	if err := json.Unmarshal([]byte(`{"version":"1.0.0","VERSION":"2.0.0"}`), &m); err != nil || m.Version != "2.0.0" {
		t.Fatalf("encoding/json: %q, %v", m.Version, err)
	}
}

func deep(n int) string {
	s := ""
	for range n {
		s += "["
	}
	for range n {
		s += "]"
	}
	return s
}

// FuzzCheck: any bytes are refused with an error or decode; what Check accepts,
// encoding/json decodes to the same value whichever of its keys' spellings it saw.
func FuzzCheck(f *testing.F) {
	f.Add([]byte(`{"version":"1.0.0","target":{"os":"linux","arch":"arm"},"files":[{"name":"a","size":1}]}`))
	f.Add([]byte(`{"version":"1","Version":"2"}`))
	f.Add([]byte(`{"extra":[{"k":1,"k":2}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var m manifest
		if err := Unmarshal(b, &m); err != nil {
			return
		}
		var again manifest
		if err := json.Unmarshal(b, &again); err != nil {
			t.Fatalf("accepted by Check, refused by encoding/json: %v", err)
		}
	})
}

// fold's ASCII shortcut names the same class as the general rule for every ASCII byte.
func TestFoldASCII(t *testing.T) {
	for b := 0; b < 0x80; b++ {
		s := string(rune(b))
		general := strings.Map(func(r rune) rune {
			m := r
			for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
				m = min(m, f)
			}
			return m
		}, s)
		if got := fold(s); got != general {
			t.Fatalf("fold(%q) = %q, want %q", s, got, general)
		}
	}
}

func BenchmarkDecodeClaimLike(b *testing.B) {
	type ticket struct{ Block, Pack, Position int }
	type req struct {
		Ticket ticket `json:"ticket"`
		Code   string `json:"code"`
		Amount int64  `json:"amount"`
		At     string `json:"at"`
		Epoch  string `json:"epoch"`
	}
	msg := []byte(`{"ticket":{"Block":7,"Pack":1,"Position":2},"code":"0123456789012345678901234","amount":500,"at":"2026-12-07T10:00:00Z","epoch":"0123456789abcdef"}`)
	for b.Loop() {
		var r req
		if err := Unmarshal(msg, &r); err != nil {
			b.Fatal(err)
		}
	}
}
