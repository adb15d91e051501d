package guesses

import (
	"fmt"
	"testing"
	"time"
)

// BenchmarkGuardFlood is the cost of one guess from a new address when the Guard is full
// (MaxSources remembered, the budget spent): what a flood of addresses costs the terminal.
func BenchmarkGuardFlood(b *testing.B) {
	var g Guard
	now := day0
	for i := range MaxSources {
		g.mu.Lock()
		g.add(fmt.Sprintf("s%d", i), now).result(now, false, SourceLongest)
		g.mu.Unlock()
	}
	names := make([]string, 1024)
	for i := range names {
		names[i] = fmt.Sprintf("new%d", i)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		now = now.Add(time.Millisecond)
		if g.Check(names[i%len(names)], now) == nil {
			g.Result(names[i%len(names)], now, false)
		}
	}
}

// BenchmarkGuardTechnician is the cost of a right guess from a known address.
func BenchmarkGuardTechnician(b *testing.B) {
	var g Guard
	now := day0
	b.ReportAllocs()
	for b.Loop() {
		if g.Check("10.0.0.7", now) == nil {
			g.Result("10.0.0.7", now, true)
		}
	}
}
