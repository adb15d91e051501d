package config

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// BenchmarkParse reads the example file (what posd does at start).
func BenchmarkParse(b *testing.B) {
	data, err := os.ReadFile("testdata/example.toml")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Parse(data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseHostile reads the costliest file found: MaxFileSize of unknown keys in one
// table (go-toml's duplicate check is quadratic in them).
func BenchmarkParseHostile(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("[board.pins]\n")
	for i := 0; sb.Len() < MaxFileSize-20; i++ {
		fmt.Fprintf(&sb, "k%d = 1\n", i)
	}
	data := []byte(sb.String())
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Parse(data); err == nil {
			b.Fatal("accepted")
		}
	}
}
