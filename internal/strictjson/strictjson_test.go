package strictjson

import (
	"encoding/json"
	"errors"
	"testing"
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
