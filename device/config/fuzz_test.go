package config

import (
	"bytes"
	"errors"
	"os"
	"reflect"
	"testing"
)

// FuzzParse: Parse never panics; what it accepts validates and survives Encode; what it
// refuses is a list of problems, each with a message and a line inside the file.
func FuzzParse(f *testing.F) {
	example, err := os.ReadFile("testdata/example.toml")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(example)
	f.Add([]byte(minimal))
	f.Add([]byte(minimal + "[board]\npins = { buzzer = \"P1_37\", tampr = 1 }\n[limits]\npay_per_day = \"5 000,5 €\"\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse(data)
		if err != nil {
			var errs *Errors
			if !errors.As(err, &errs) || len(*errs) == 0 {
				t.Fatalf("Parse error %v (%T) is not a non-empty *Errors", err, err)
			}
			lines := bytes.Count(data, []byte("\n")) + 1
			for _, p := range *errs {
				if p.Msg == "" || p.Line < 0 || p.Line > lines {
					t.Fatalf("problem %+v (file of %d lines)", p, lines)
				}
			}
			return
		}
		if err := c.Validate(); err != nil {
			t.Fatalf("Parse accepted what Validate refuses: %v", err)
		}
		var b bytes.Buffer
		if err := c.Encode(&b); err != nil {
			t.Fatal(err)
		}
		back, err := Parse(b.Bytes())
		if err != nil {
			t.Fatalf("Parse(Encode(c)): %v\n%s", err, b.String())
		}
		if !reflect.DeepEqual(back, c) {
			t.Fatalf("Parse(Encode(c)) = %#v\nwant %#v", back, c)
		}
	})
}
