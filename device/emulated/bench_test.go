package emulated

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/packterm/pos/validate/block"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/game"
	"github.com/packterm/pos/validate/ledger"
)

// BenchmarkScanToDisplay measures a scan through the emulated scanner (pty, driver, framing)
// to the emulated panel showing the answer. The code is a ticket already paid: the answer
// reads the journal's index and appends a refusal record (fsync included).
func BenchmarkScanToDisplay(b *testing.B) {
	tb := newTestBlock(b)
	shown := make(chan struct{}, 1)
	var armed sync.Mutex
	rig, err := Start(context.Background(), Options{Dir: b.TempDir(), Ledgers: []*ledger.Ledger{tb.ledger}, AllDelivered: true,
		OnScreen: func([]string) {
			armed.Lock()
			defer armed.Unlock()
			select {
			case shown <- struct{}{}:
			default:
			}
		}})
	if err != nil {
		b.Fatal(err)
	}
	defer rig.Close()
	ctx := context.Background()
	five := tb.find(b, func(tk block.Ticket) bool { return tk.Lot == 5_00 })
	code := tb.code(five)
	if _, err := rig.Do(ctx, code); err != nil {
		b.Fatal(err)
	}
	if _, err := rig.Do(ctx, "!ok"); err != nil {
		b.Fatal(err)
	}
	var lat []time.Duration
	for b.Loop() {
		for len(shown) > 0 {
			<-shown
		}
		n := rig.Terminal.Received()
		start := time.Now()
		if err := rig.Scanner.Scan(ctx, code, "]Q1"); err != nil {
			b.Fatal(err)
		}
		<-shown
		lat = append(lat, time.Since(start))
		if _, err := rig.Terminal.Settle(ctx, n); err != nil {
			b.Fatal(err)
		}
	}
	slices.Sort(lat)
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ReportMetric(ms(lat[len(lat)/2]), "p50-ms")
	b.ReportMetric(ms(lat[len(lat)*99/100]), "p99-ms")
	b.ReportMetric(0, "ns/op")
}

// fullBlock is the règlement's whole block, generated once per run (about 15 s) when
// POS_BENCH_FULL_BLOCK is set.
var fullBlock = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "pos-bench-full-")
	if err != nil {
		return "", err
	}
	return dir, GenerateBlock(context.Background(), dir, game.Reglement(), 1, block.Seed{1}, nil, nil)
})

func openFull(b *testing.B) (string, *ledger.TrustStore) {
	if os.Getenv("POS_BENCH_FULL_BLOCK") == "" {
		b.Skip("set POS_BENCH_FULL_BLOCK=1 to generate and load a full block (about 15 s)")
	}
	dir, err := fullBlock()
	if err != nil {
		b.Fatal(err)
	}
	trust, err := ledger.LoadTrustStore(filepath.Join(dir, "keys", ledger.OperatorPublicFile))
	if err != nil {
		b.Fatal(err)
	}
	return filepath.Join(dir, ledger.FileName(1)), trust
}

// BenchmarkStartToReady: the ledger of a full block verified (signature, hash tree, every
// entry) and the whole emulated terminal started until it shows its first screen.
func BenchmarkStartToReady(b *testing.B) {
	path, trust := openFull(b)
	for b.Loop() {
		b.StopTimer()
		dir := b.TempDir()
		b.StartTimer()
		l, err := ledger.OpenFile(path, trust)
		if err != nil {
			b.Fatal(err)
		}
		rig, err := Start(context.Background(), Options{Dir: dir, Ledgers: []*ledger.Ledger{l}, AllDelivered: true})
		if err != nil {
			b.Fatal(err)
		}
		<-rig.Terminal.Ready()
		b.StopTimer()
		rig.Close()
		l.Close()
		b.StartTimer()
	}
}

// BenchmarkHeapFullBlock reports the Go heap of a running terminal with a full block's
// ledger loaded (the ledger itself is mapped, not on the heap).
func BenchmarkHeapFullBlock(b *testing.B) {
	path, trust := openFull(b)
	l, err := ledger.OpenFile(path, trust)
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	rig, err := Start(context.Background(), Options{Dir: b.TempDir(), Ledgers: []*ledger.Ledger{l}, AllDelivered: true})
	if err != nil {
		b.Fatal(err)
	}
	defer rig.Close()
	ctx := context.Background()
	for b.Loop() {
		code := codes.ValidationCodeOf(codes.TicketID{Block: 1, Pack: 7, Position: 1}, [codes.SecretSize]byte{9})
		if _, err := rig.Do(ctx, code.String()); err != nil {
			b.Fatal(err)
		}
	}
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	b.ReportMetric(float64(m.HeapAlloc)/(1<<20), "heap-MB")
	b.ReportMetric(float64(l.Size())/(1<<20), "ledger-MB")
}
