package web

import (
	"encoding/json"
	"testing"
)

// BenchmarkLive is the event stream's cost per look (every 100 ms per open page): the
// emulated terminal's state, as JSON.
func BenchmarkLive(b *testing.B) {
	e := startEnv(b, nil)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := json.Marshal(e.srv.emu.live()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStatus is the cost of one /status.json.
func BenchmarkStatus(b *testing.B) {
	e := startEnv(b, nil)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := json.Marshal(e.srv.o.Parts.Collect()); err != nil {
			b.Fatal(err)
		}
	}
}
