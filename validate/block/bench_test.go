package block

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/packterm/pos/validate/game"
	"github.com/packterm/pos/validate/ledger"
)

// BenchmarkSolve: the exact design of the règlement's block.
func BenchmarkSolve(b *testing.B) {
	d := game.Reglement()
	for i := 0; b.Loop(); i++ {
		if _, err := Solve(d, rand.New(rand.NewPCG(uint64(i), 0))); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGenerateBlock: a whole block, from seed to files on disk: design, placement,
// 12,000,000 secrets and plays, sealed entries, the gzip printer's file and the signed
// ledger (format 2, 102 MB), synced. Target ≤ 12 s on 2 cores.
func BenchmarkGenerateBlock(b *testing.B) {
	if raceEnabled {
		b.Skip("not under -race")
	}
	_, priv, _ := ed25519GenerateKey()
	d := game.Reglement()
	var dir string
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		os.RemoveAll(dir) // the previous iteration's block: a block is never overwritten
		dir = filepath.Join(b.TempDir(), "block")
		if err := os.Mkdir(dir, 0o700); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		p, err := NewPlan(d, 42, Seed{byte(i)})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := p.Files(context.Background(), dir, 1, priv, nil); err != nil {
			b.Fatal(err)
		}
	}
	st, _ := os.Stat(filepath.Join(dir, ledger.FileName(42)))
	b.ReportMetric(float64(st.Size())/1e6, "ledger-MB")
	st, _ = os.Stat(filepath.Join(dir, PrintFileName(42)))
	b.ReportMetric(float64(st.Size())/1e6, "print-MB")
}

// BenchmarkAuditBlock: the audit of the shared full block. Target ≤ 60 s.
func BenchmarkAuditBlock(b *testing.B) {
	g := fullBlock(b)
	b.ResetTimer()
	for b.Loop() {
		rep := g.audit(b, g.printPath())
		if !rep.OK() {
			b.Fatal("audit found problems")
		}
	}
}

// BenchmarkTickets: drawing tickets (secret and play) and formatting their rows, per ticket.
func BenchmarkTickets(b *testing.B) {
	p, err := NewPlan(smallDefinition(rand.New(rand.NewPCG(1, 1)), ChunkPacks), 1, Seed{1})
	if err != nil {
		b.Fatal(err)
	}
	row := make([]byte, 0, 256)
	n := 0
	start := time.Now()
	for b.Loop() {
		p.Tickets(0, func(t *Ticket) error { row = appendRow(row[:0], t); n++; return nil })
	}
	b.ReportMetric(float64(time.Since(start).Nanoseconds())/float64(n), "ns/ticket")
}
