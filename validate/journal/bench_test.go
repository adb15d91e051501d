package journal

import (
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
	bolt "go.etcd.io/bbolt"
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

// bigJournal builds, once per run, a journal of 1,000,000 payouts with a checkpoint at its
// head (a few minutes on a loaded machine). JOURNAL_BENCH_1M=DIR keeps it in DIR across runs:
// a copy is made there the first time and reused (a copy, so that the runs do not change it).
func bigJournal(b *testing.B) string {
	bigOnce.Do(func() {
		bigDir, bigErr = os.MkdirTemp(os.Getenv("JOURNAL_BENCH_DIR"), "journal-1m-")
		if bigErr != nil {
			return
		}
		if cache := os.Getenv("JOURNAL_BENCH_1M"); cache != "" {
			bigErr = cachedFixture(cache, bigDir, func(dir string) error { return buildBig(b, dir) })
			if bigErr == nil {
				st, _ := os.Stat(filepath.Join(bigDir, DBFile))
				bigSize = st.Size()
			}
			return
		}
		bigErr = buildBig(b, bigDir)
		if bigErr != nil {
			return
		}
		st, _ := os.Stat(filepath.Join(bigDir, DBFile))
		bigSize = st.Size()
	})
	if bigErr != nil {
		b.Fatal(bigErr)
	}
	return bigDir
}

// buildBig writes the 1,000,000-payout journal into dir.
func buildBig(b *testing.B, dir string) error {
	j, err := Open(dir, Options{Terminal: "T0042", Clock: clockwork.NewFakeClockAt(testStart)})
	if err != nil {
		return err
	}
	defer j.Close()
	fill(b, j, 0, bigN)
	_, err = j.Checkpoint()
	return err
}

// cachedFixture copies the fixture kept in cache into dir, building it there first when
// cache holds none.
func cachedFixture(cache, dir string, build func(dir string) error) error {
	if _, err := os.Stat(filepath.Join(cache, DBFile)); err != nil {
		if err := os.MkdirAll(cache, 0o700); err != nil {
			return err
		}
		if err := build(cache); err != nil {
			return err
		}
	}
	return copyDir(cache, dir)
}

// copyDir copies the regular files of src into dst, keeping their modes (the device key is
// refused when others may read it).
func copyDir(src, dst string) error {
	es, err := os.ReadDir(src)
	if err != nil {
		return err
	}
	for _, e := range es {
		if !e.Type().IsRegular() {
			continue
		}
		info, err := e.Info()
		if err != nil {
			return err
		}
		in, err := os.Open(filepath.Join(src, e.Name()))
		if err != nil {
			return err
		}
		out, err := os.OpenFile(filepath.Join(dst, e.Name()), os.O_CREATE|os.O_EXCL|os.O_WRONLY, info.Mode().Perm())
		if err == nil {
			_, err = io.Copy(out, in)
			if cerr := out.Close(); err == nil {
				err = cerr
			}
		}
		in.Close()
		if err != nil {
			return err
		}
	}
	return nil
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
	cpu := cpuTime()
	for b.Loop() {
		j, err := Open(dir, Options{Terminal: "T0042", Clock: clockwork.NewFakeClockAt(testStart)})
		if err != nil || j.Health() != nil {
			b.Fatal(err, j.Health())
		}
		j.Close()
	}
	b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N)/1e6, "cpu-ms/op")
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
		benchPaid(b, dir, 50000, 0, 100000, Options{})
	})
	b.Run("payouts=1000000", func(b *testing.B) { benchPaid(b, bigJournal(b), bigN, 0, 2*bigN, Options{}) })
}

// benchPaid looks up tickets in dir's journal (n payouts, tickets 0..n-1) opened as the
// terminal opens it (for writing: the paid index in memory), or read-only: the tickets k
// from..to-1, paid when k < n; those from n up are not paid and fall among the paid ones
// (the same pack, position 0), not after them all.
func benchPaid(b *testing.B, dir string, n, from, to int, o Options) {
	if !o.ReadOnly {
		o = Options{Terminal: "T0042", Clock: clockwork.NewFakeClockAt(testStart)}
	}
	j, err := Open(dir, o)
	if err != nil {
		b.Fatal(err)
	}
	defer j.Close()
	j.paid.wait()
	rng := rand.New(rand.NewPCG(1, 1))
	cpu := cpuTime()
	for b.Loop() {
		k := from + rng.IntN(to-from)
		id := ticketN(k % n)
		if k >= n {
			id.Position = 0
		}
		_, ok, err := j.Paid(id)
		if err != nil || ok != (k < n) {
			b.Fatal(k, ok, err)
		}
	}
	b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
}

// BenchmarkPaidLookup1M splits the look-up in a journal of 1,000,000 payouts (target ≤ 2
// µs): a ticket not paid (every winner scanned asks this: answered from the index in
// memory), a ticket paid (its record read from the file), and the read-only open of the
// operator's commands (no index in memory: the paid bucket and the record, in the file).
func BenchmarkPaidLookup1M(b *testing.B) {
	b.Run("not-paid", func(b *testing.B) { benchPaid(b, bigJournal(b), bigN, bigN, 2*bigN, Options{}) })
	b.Run("paid", func(b *testing.B) { benchPaid(b, bigJournal(b), bigN, 0, bigN, Options{}) })
	b.Run("read-only", func(b *testing.B) { benchPaid(b, bigJournal(b), bigN, 0, 2*bigN, Options{ReadOnly: true}) })
}

// BenchmarkPaidIndexFill1M is the background fill of the paid index in memory that the
// first Paid after Open starts, for 1,000,000 payouts: until it ends Paid reads the file.
// It reports the heap the index takes.
func BenchmarkPaidIndexFill1M(b *testing.B) {
	dir := bigJournal(b)
	j, err := Open(dir, Options{Terminal: "T0042", Clock: clockwork.NewFakeClockAt(testStart)})
	if err != nil {
		b.Fatal(err)
	}
	defer j.Close()
	j.paid.wait()
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var p *paidMem
	for b.Loop() {
		p = newPaidMem(j.db)
		p.fill()
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	if _, known := p.lookup(ticketN(0)); !known {
		b.Fatal("not filled")
	}
	b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/(1<<20), "heap-MB")
}

// cpuTime is the process's user and system CPU time so far, in nanoseconds: on a shared
// machine the wall time of a benchmark follows the load, its CPU time much less.
func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// BenchmarkPaidIndexRewrite1M is the one-time rewrite of the paid index of a journal of
// 1,000,000 payouts written before it held the payouts' times: the open for writing that
// does it (each op opens a fresh copy, its index put back in the older format untimed).
func BenchmarkPaidIndexRewrite1M(b *testing.B) {
	src := bigJournal(b)
	cpu := int64(0)
	for b.Loop() {
		b.StopTimer()
		dir := benchDir(b)
		if err := copyDir(src, dir); err != nil {
			b.Fatal(err)
		}
		db, err := bolt.Open(filepath.Join(dir, DBFile), 0o600, nil)
		if err == nil {
			err = db.Update(downgradePaid)
			if cerr := db.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			b.Fatal(err)
		}
		c := cpuTime()
		b.StartTimer()
		j, err := Open(dir, Options{Terminal: "T0042", Clock: clockwork.NewFakeClockAt(testStart)})
		if err != nil || j.Health() != nil {
			b.Fatal(err, j.Health())
		}
		j.Close()
		b.StopTimer()
		cpu += cpuTime() - c
		os.RemoveAll(dir)
		b.StartTimer()
	}
	b.ReportMetric(float64(cpu)/float64(b.N)/1e6, "cpu-ms/op")
}
