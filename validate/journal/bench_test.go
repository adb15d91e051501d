package journal

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
)

// benchDir is where the benchmarks put their journals: JOURNAL_BENCH_DIR (the data
// directory's filesystem on a terminal), or a temporary directory.
func benchDir(b *testing.B) string {
	if d := os.Getenv("JOURNAL_BENCH_DIR"); d != "" {
		dir, err := os.MkdirTemp(d, "journal-bench-")
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { os.RemoveAll(dir) })
		return dir
	}
	return b.TempDir()
}

// fill appends n payouts in batches (one fsync per batch): the fixture fast path.
func fill(b *testing.B, j *Journal, from, n int) {
	const batch = 20000
	j.db.NoSync = true
	defer func() { j.db.NoSync = false }()
	es := make([]Entry, 0, batch)
	for i := from; i < from+n; i++ {
		es = append(es, payoutN(i))
		if len(es) == batch || i == from+n-1 {
			if err := j.appendBatch(es); err != nil {
				b.Fatal(err)
			}
			es = es[:0]
		}
	}
	if err := j.db.Sync(); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkAppend appends payouts one by one, each fsynced, and reports the latency
// percentiles (target: p99 ≤ 10 ms) and the file's bytes per record.
func BenchmarkAppend(b *testing.B) {
	dir := benchDir(b)
	j, err := Open(dir, Options{Terminal: "T0042", Clock: clockwork.NewFakeClockAt(testStart)})
	if err != nil {
		b.Fatal(err)
	}
	defer j.Close()
	lat := make([]time.Duration, 0, 1024)
	i := 0
	for b.Loop() {
		t0 := time.Now()
		if _, err := j.Append(payoutN(i)); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(t0))
		i++
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
}

// BenchmarkAppendNoSync is BenchmarkAppend without the fsyncs: what an append costs
// besides the disk (checks, encoding, hash, the device key's signature, bbolt's commit),
// which the disk's latency hides on a loaded machine.
func BenchmarkAppendNoSync(b *testing.B) {
	dir := benchDir(b)
	j, err := Open(dir, Options{Terminal: "T0042", Clock: clockwork.NewFakeClockAt(testStart)})
	if err != nil {
		b.Fatal(err)
	}
	defer j.Close()
	j.db.NoSync = true
	lat := make([]time.Duration, 0, 1024)
	i := 0
	for b.Loop() {
		t0 := time.Now()
		if _, err := j.Append(payoutN(i)); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(t0))
		i++
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
}

var (
	bigOnce sync.Once
	bigDir  string
	bigErr  error
	bigSize int64
	bigN    = 1_000_000
)

// bigJournal builds, once, a journal of 1,000,000 payouts with a checkpoint at its head.
func bigJournal(b *testing.B) string {
	bigOnce.Do(func() {
		bigDir, bigErr = os.MkdirTemp(os.Getenv("JOURNAL_BENCH_DIR"), "journal-1m-")
		if bigErr != nil {
			return
		}
		j, err := Open(bigDir, Options{Terminal: "T0042", Clock: clockwork.NewFakeClockAt(testStart)})
		if err != nil {
			bigErr = err
			return
		}
		fill(b, j, 0, bigN)
		if _, bigErr = j.Checkpoint(); bigErr != nil {
			return
		}
		j.Close()
		st, _ := os.Stat(filepath.Join(bigDir, DBFile))
		bigSize = st.Size()
	})
	if bigErr != nil {
		b.Fatal(bigErr)
	}
	return bigDir
}

func TestMain(m *testing.M) {
	code := m.Run()
	if bigDir != "" {
		os.RemoveAll(bigDir)
	}
	os.Exit(code)
}

// BenchmarkOpen1M opens a journal of 1,000,000 records for writing, as the terminal does
// at start: structural check of the file, verification from the last checkpoint (target
// ≤ 1 s); it reports the file's bytes per record.
func BenchmarkOpen1M(b *testing.B) {
	dir := bigJournal(b)
	for b.Loop() {
		j, err := Open(dir, Options{Terminal: "T0042", Clock: clockwork.NewFakeClockAt(testStart)})
		if err != nil || j.Health() != nil {
			b.Fatal(err, j.Health())
		}
		j.Close()
	}
	b.ReportMetric(float64(bigSize)/float64(bigN), "bytes/record")
}

// BenchmarkVerifyFull1M checks all of a journal of 1,000,000 records (what `posctl
// journal verify` does): open read-only, then the whole chain, checkpoints, indexes, days.
func BenchmarkVerifyFull1M(b *testing.B) {
	dir := bigJournal(b)
	for b.Loop() {
		j, err := Open(dir, Options{ReadOnly: true})
		if err != nil {
			b.Fatal(err)
		}
		if rep, err := j.Verify(); err != nil || rep.Records != uint64(bigN) {
			b.Fatal(rep, err)
		}
		j.Close()
	}
}

// BenchmarkPaid looks tickets up in the paid index, half of them paid, half not (target
// ≤ 2 µs): in a year's journal of a busy terminal (50,000 payouts) and in one of
// 1,000,000 payouts, whose 250 MB file no longer fits the processor's caches.
func BenchmarkPaid(b *testing.B) {
	b.Run("payouts=50000", func(b *testing.B) {
		dir := benchDir(b)
		j, err := Open(dir, Options{Terminal: "T0042", Clock: clockwork.NewFakeClockAt(testStart)})
		if err != nil {
			b.Fatal(err)
		}
		fill(b, j, 0, 50000)
		j.Close()
		benchPaid(b, dir, 50000)
	})
	b.Run("payouts=1000000", func(b *testing.B) { benchPaid(b, bigJournal(b), bigN) })
}

func benchPaid(b *testing.B, dir string, n int) {
	j, err := Open(dir, Options{ReadOnly: true})
	if err != nil {
		b.Fatal(err)
	}
	defer j.Close()
	rng := rand.New(rand.NewPCG(1, 1))
	for b.Loop() {
		k := rng.IntN(2 * n)
		_, ok, err := j.Paid(ticketN(k))
		if err != nil || ok != (k < n) {
			b.Fatal(k, ok, err)
		}
	}
}
