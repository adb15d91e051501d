package block

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/game"
	"github.com/packterm/pos/validate/ledger"
)

// The full block of the règlement, generated once and shared by the tests and
// benchmarks that need it (about ten seconds of two cores, 430 MB in a temporary
// directory removed by TestMain).
var (
	fullOnce sync.Once
	full     *generated
	fullErr  error
	fullDir  string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if fullDir != "" {
		os.RemoveAll(fullDir)
	}
	os.Exit(code)
}

// fullBlock returns the shared full block, skipping in -short mode and under the race
// detector (scripts/test.sh runs validate/... without it).
func fullBlock(tb testing.TB) *generated {
	tb.Helper()
	if testing.Short() || raceEnabled {
		tb.Skip("full block (12,000,000 tickets) skipped in -short mode and under -race")
	}
	fullOnce.Do(func() {
		fullDir, fullErr = os.MkdirTemp("", "fullblock")
		if fullErr != nil {
			return
		}
		full, fullErr = generateIn(fullDir, game.Reglement(), 42, Seed{0x42})
	})
	if fullErr != nil {
		tb.Fatal(fullErr)
	}
	return full
}

func TestFullBlock(t *testing.T) {
	g := fullBlock(t)
	d := game.Reglement()
	ledgerPath := filepath.Join(g.dir, ledger.FileName(42))
	st, err := os.Stat(ledgerPath)
	if err != nil {
		t.Fatal(err)
	}
	if st.Size() > 104_000_000 {
		t.Errorf("ledger of %d bytes, the target is ≤ 104,000,000", st.Size())
	}
	t.Logf("ledger %d bytes, design of %d patterns %+v", st.Size(), len(g.plan.Design.Patterns), g.plan.Design.Stats)

	t.Run("audit", func(t *testing.T) {
		rep := g.audit(t, g.printPath())
		if !rep.OK() || !rep.IsReglement || rep.Rows != 12_000_000 || rep.Packs != 1_500_000 || rep.Checked.Ledger != rep.Rows {
			rep.Write(os.Stderr)
			t.Fatalf("audit of the full block: %d problems", rep.Problems)
		}
	})

	t.Run("ledger answers every sampled ticket as the plan says", func(t *testing.T) {
		l, err := ledger.OpenFile(ledgerPath, g.trust)
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		r := rand.New(rand.NewPCG(1, 1))
		for range 300 {
			c := r.IntN(g.plan.Chunks())
			k := r.IntN(ChunkPacks * d.TicketsPerPack)
			i := 0
			g.plan.Tickets(c, func(tk *Ticket) error {
				if i == k {
					res, err := l.Lookup(codes.ValidationCodeOf(tk.ID, tk.Secret))
					if err != nil || res.Lot != tk.Lot || res.Tier != tk.Tier {
						t.Fatalf("ticket %v: ledger says %+v, %v; plan says %v", tk.ID, res, err, tk.Lot)
					}
					bad := tk.Secret
					bad[r.IntN(len(bad))] ^= byte(1 + r.IntN(255))
					if _, err := l.Lookup(codes.ValidationCodeOf(tk.ID, bad)); !errors.Is(err, ledger.ErrForged) {
						t.Fatalf("ticket %v with a wrong secret: %v", tk.ID, err)
					}
				}
				i++
				return nil
			})
			if i == 0 {
				t.Fatal("empty chunk")
			}
		}
	})

	t.Run("a flipped byte anywhere is refused", func(t *testing.T) {
		data, err := os.ReadFile(ledgerPath)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(2, 2))
		header := len(data) - ledger.PackedSize(d.TicketsPerBlock())
		offsets := []int{0, header / 2, header - 1, header, len(data) - 1}
		for range 20 {
			offsets = append(offsets, header+r.IntN(len(data)-header))
		}
		for _, off := range offsets {
			data[off] ^= 0x10
			if l, err := ledger.Parse(data, g.trust); err == nil {
				l.Close()
				t.Errorf("byte %d flipped: accepted", off)
			}
			data[off] ^= 0x10
		}
	})
}

// generateIn is generate for a directory that outlives one test.
func generateIn(dir string, d *game.Definition, block uint16, seed Seed) (*generated, error) {
	pub, priv, err := ed25519GenerateKey()
	if err != nil {
		return nil, err
	}
	p, err := NewPlan(d, block, seed)
	if err != nil {
		return nil, err
	}
	m, err := p.Files(context.Background(), dir, 1, priv, nil)
	if err != nil {
		return nil, err
	}
	return &generated{dir: dir, plan: p, pub: pub, priv: priv, man: m, trust: ledger.NewTrustStore(pub)}, nil
}
