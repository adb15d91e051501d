package ledger

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/game"
)

var sinkEntry Entry

func BenchmarkSeal(b *testing.B) {
	var s [codes.SecretSize]byte
	id := codes.TicketID{Block: 42, Pack: 123456, Position: 3}
	for i := 0; b.Loop(); i++ {
		s[0] = byte(i)
		sinkEntry = Seal(id, s, uint8(i&7))
	}
}

func BenchmarkOpen(b *testing.B) {
	var s [codes.SecretSize]byte
	id := codes.TicketID{Block: 42, Pack: 123456, Position: 3}
	e := Seal(id, s, 5)
	for b.Loop() {
		if _, err := Open(e, id, s); err != nil {
			b.Fatal(err)
		}
	}
}

// A full-size block (1,500,000 packs, 12,000,000 entries), built once for the benchmarks
// that need it, with secrets and tiers from a cheap mixing function of the index (the
// benchmarks measure the ledger, not a CSPRNG).
var (
	fullOnce  sync.Once
	fullDir   string
	fullPath  string
	fullTrust *TrustStore
	fullErr   error
	fullBuild time.Duration // sealing 12,000,000 entries on every core
	fullWrite time.Duration // hashing, signing and writing the file
)

func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

func fullSecret(i int) (s [codes.SecretSize]byte) {
	binary.LittleEndian.PutUint64(s[:], splitmix(uint64(i)))
	binary.LittleEndian.PutUint16(s[8:], uint16(splitmix(uint64(i)+1<<40)))
	return s
}

func fullTier(d *game.Definition, i int) uint8 {
	x := splitmix(uint64(i) + 1<<41)
	if x%3 != 0 {
		return 0
	}
	return uint8(1 + x/3%uint64(len(d.Games[i%8].Tiers)))
}

func fullID(i int) codes.TicketID {
	return codes.TicketID{Block: 42, Pack: uint32(i / 8), Position: uint8(i%8 + 1)}
}

func fullLedger(b *testing.B) string {
	b.Helper()
	fullOnce.Do(func() {
		d := game.Reglement()
		h := Header{Block: 42, Version: 1, Packs: codes.PacksPerBlock, Definition: d}
		pub, priv := testKey(b)
		fullTrust = NewTrustStore(pub)
		n := h.Entries()
		e := NewEntries(n)
		start := time.Now()
		var wg sync.WaitGroup
		workers := runtime.GOMAXPROCS(0)
		for w := range workers {
			wg.Add(1)
			go func() { // one contiguous run of whole packs per worker
				defer wg.Done()
				lo, hi := int(h.Packs)*w/workers*8, int(h.Packs)*(w+1)/workers*8
				for i := lo; i < hi; i++ {
					e.Set(i, Seal(fullID(i), fullSecret(i), fullTier(d, i)))
				}
			}()
		}
		wg.Wait()
		fullBuild = time.Since(start)
		if fullDir, fullErr = os.MkdirTemp("", "ledger-bench-"); fullErr != nil {
			return
		}
		fullPath = filepath.Join(fullDir, FileName(42))
		start = time.Now()
		fullErr = Write(fullPath, h, e, priv)
		fullWrite = time.Since(start)
	})
	if fullErr != nil {
		b.Fatal(fullErr)
	}
	return fullPath
}

func TestMain(m *testing.M) {
	code := m.Run()
	if fullDir != "" {
		os.RemoveAll(fullDir)
	}
	os.Exit(code)
}

// BenchmarkWriteFullBlock writes a full block's ledger (hash tree on every core,
// signature, temporary file, fsync, rename) per iteration; it also reports what sealing
// the 12,000,000 entries on every core took (once) and the file's size.
func BenchmarkWriteFullBlock(b *testing.B) {
	path := fullLedger(b)
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	l, err := Parse(data, fullTrust)
	if err != nil {
		b.Fatal(err)
	}
	h := l.Header()
	e := NewEntries(h.Entries())
	copy(e.Bytes(), data[len(data)-PackedSize(h.Entries()):])
	_, priv := testKey(b)
	out := filepath.Join(fullDir, "write-bench.ledger")
	for b.Loop() {
		if err := Write(out, h, e, priv); err != nil {
			b.Fatal(err)
		}
	}
	os.Remove(out)
	b.ReportMetric(fullBuild.Seconds(), "seal-12M-s")
	b.ReportMetric(float64(st.Size()), "file-bytes")
}

// BenchmarkOpenVerifyFullBlock: map a full-block ledger and check its signature, hash
// tree and every entry chunk (the file is in the page cache, as on a terminal after boot).
func BenchmarkOpenVerifyFullBlock(b *testing.B) {
	path := fullLedger(b)
	for b.Loop() {
		l, err := OpenFile(path, fullTrust)
		if err != nil {
			b.Fatal(err)
		}
		l.Close()
	}
}

// BenchmarkVerifyFileFullBlock: verify a full-block ledger as the command line does, with
// plain reads and a streaming hash (no mapping; page cache warm).
func BenchmarkVerifyFileFullBlock(b *testing.B) {
	path := fullLedger(b)
	for b.Loop() {
		if _, err := VerifyFile(path, fullTrust); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLookupFullBlock: validation codes of random tickets of a full block; reports
// the median lookup time as well as the mean.
func BenchmarkLookupFullBlock(b *testing.B) {
	path := fullLedger(b)
	l, err := OpenFile(path, fullTrust)
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	d := l.Header().Definition
	const m = 1 << 12
	cs := make([]codes.ValidationCode, m)
	tiers := make([]uint8, m)
	for k := range cs {
		i := int(splitmix(uint64(k)+1<<42) % 12_000_000)
		cs[k] = codes.ValidationCodeOf(fullID(i), fullSecret(i))
		tiers[k] = fullTier(d, i)
	}
	samples := make([]time.Duration, 0, 1<<20)
	k := 0
	for b.Loop() {
		t0 := time.Now()
		r, err := l.Lookup(cs[k%m])
		dt := time.Since(t0)
		if err != nil || r.Tier != tiers[k%m] {
			b.Fatalf("lookup: %+v, %v", r, err)
		}
		if len(samples) < cap(samples) {
			samples = append(samples, dt)
		}
		k++
	}
	slices.Sort(samples)
	b.ReportMetric(float64(samples[len(samples)/2].Nanoseconds()), "median-ns")
}

// BenchmarkLookupForged: a wrong secret, the answer to a forger.
func BenchmarkLookupForged(b *testing.B) {
	path := fullLedger(b)
	l, err := OpenFile(path, fullTrust)
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	c := codes.ValidationCodeOf(fullID(77), fullSecret(78))
	for b.Loop() {
		if _, err := l.Lookup(c); err == nil {
			b.Fatal("forged code accepted")
		}
	}
}

// BenchmarkSegmentCheck: the check a lookup adds: copy a segment (272 bytes) and hash it.
func BenchmarkSegmentCheck(b *testing.B) {
	seg := make([]byte, segmentBytes)
	var buf segmentBuf
	var sink [segmentDigest]byte
	for b.Loop() {
		sink, _ = buf.fill(3, 5, seg)
	}
	_ = sink
}
