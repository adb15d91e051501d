package emulated

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/journal"
	"github.com/packterm/pos/validate/ledger"
)

// BenchmarkStart is the emulated terminal's start until its first screen (journal open and
// checked from its last checkpoint, the state read from the journal's indexes, the
// drivers), on an empty journal and on one of 1,000,000 records (target ≤ 1 s). The
// million-record journal is built once per run (a few minutes on a loaded machine; it
// runs only with -bench); POS_BENCH_1M=DIR keeps a copy in DIR for the next runs. It
// reports the process's CPU time per start beside the wall time, which follows the
// machine's load.
func BenchmarkStart(b *testing.B) {
	tb := newTestBlock(b)
	b.Run("records=0", func(b *testing.B) { benchStart(b, tb.ledger, b.TempDir()) })
	b.Run("records=1000000", func(b *testing.B) { benchStart(b, tb.ledger, bigEmuJournal(b)) })
}

func benchStart(b *testing.B, l *ledger.Ledger, dir string) {
	cpu, rss, anon := cpuTime(), int64(0), int64(0)
	for b.Loop() {
		rig, err := Start(context.Background(), Options{Dir: dir, Ledgers: []*ledger.Ledger{l}, AllDelivered: true})
		if err != nil {
			b.Fatal(err)
		}
		<-rig.Terminal.Ready()
		b.StopTimer()
		if err := rig.Journal.Health(); err != nil {
			b.Fatal(err)
		}
		debug.FreeOSMemory()
		rss, anon = vmRSS()
		rig.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N)/1e6, "cpu-ms/op")
	b.ReportMetric(float64(rss)/(1<<20), "rss-MB")
	b.ReportMetric(float64(anon)/(1<<20), "anon-MB")
}

// vmRSS is the process's resident set and its anonymous part (VmRSS and RssAnon of
// /proc/self/status, in bytes; 0 where there is none): the terminal at rest after its
// start. The rest of VmRSS is file pages (the journal's, mapped by bbolt and read by its
// structural check; the ledger's): page cache the kernel can take back.
func vmRSS() (rss, anon int64) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		k, v, _ := strings.Cut(line, ":")
		n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		switch k {
		case "VmRSS":
			rss = n << 10
		case "RssAnon":
			anon = n << 10
		}
	}
	return rss, anon
}

// cpuTime is the process's user and system CPU time so far, in nanoseconds.
func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

const bigRecords = 1_000_000

var (
	bigOnce sync.Once
	bigDir  string
	bigErr  error
)

// bigEmuJournal is a data directory whose journal holds 1,000,000 records of the rig's
// terminal, a month old: payouts, and every few thousand a claim, forged-code refusals
// and a lock, a tamper and its unlock; a checkpoint at the head.
func bigEmuJournal(b *testing.B) string {
	bigOnce.Do(func() {
		if bigDir, bigErr = os.MkdirTemp("", "emu-start-1m-"); bigErr != nil {
			return
		}
		b.Cleanup(func() { os.RemoveAll(bigDir) })
		dst := filepath.Join(bigDir, "journal")
		if bigErr = os.MkdirAll(dst, 0o700); bigErr != nil {
			return
		}
		cache := os.Getenv("POS_BENCH_1M")
		if cache == "" {
			bigErr = buildBigJournal(dst)
			return
		}
		if _, err := os.Stat(filepath.Join(cache, journal.DBFile)); err != nil {
			if bigErr = os.MkdirAll(cache, 0o700); bigErr != nil {
				return
			}
			if bigErr = buildBigJournal(cache); bigErr != nil {
				return
			}
		}
		bigErr = copyFiles(cache, dst)
	})
	if bigErr != nil {
		b.Fatal(bigErr)
	}
	return bigDir
}

func buildBigJournal(dir string) error {
	clock := clockwork.NewFakeClockAt(time.Now().Add(-30 * 24 * time.Hour))
	j, err := journal.Open(dir, journal.Options{Terminal: "EMU-0001", Clock: clock})
	if err != nil {
		return err
	}
	defer j.Close()
	const batch = 20000
	es := make([]journal.Entry, 0, batch)
	for i := range bigRecords {
		es = append(es, bigEntry(i))
		if len(es) == batch {
			if err := j.AppendBatch(es); err != nil {
				return err
			}
			es = es[:0]
			clock.Advance(time.Hour)
		}
	}
	_, err = j.Checkpoint()
	return err
}

// bigEntry is record i+1 of the big journal.
func bigEntry(i int) journal.Entry {
	id := codes.TicketID{Block: uint16(2 + i/(codes.PacksPerBlock*8)), Pack: uint32(i/8) % codes.PacksPerBlock, Position: uint8(i%8 + 1)}
	switch i % 5000 {
	case 1000:
		return journal.Entry{Kind: journal.KindClaim, Ticket: id, Game: int(id.Position), Amount: 500000, Receipts: []string{"R"}}
	case 2000, 2001, 2002, 2003, 2004:
		return journal.Entry{Kind: journal.KindRefused, Reason: "forged"}
	case 2005:
		return journal.Entry{Kind: journal.KindLock, Reason: "forged", Detail: "1m0s"}
	case 3000:
		return journal.Entry{Kind: journal.KindTamper, Reason: "case-opened"}
	case 3001:
		return journal.Entry{Kind: journal.KindUnlock, Reason: "token"}
	}
	var s [codes.SecretSize]byte
	s[0], s[1], s[2], s[9] = byte(i), byte(i>>8), byte(i>>16), 0x5a
	return journal.Entry{Kind: journal.KindPayout, Ticket: id, Game: int(id.Position), Amount: 3000,
		Code: codes.ValidationCodeOf(id, s), Receipts: []string{"J", "C"}}
}

// copyFiles copies the regular files of src into dst, keeping their modes (the device key
// is refused when others may read it).
func copyFiles(src, dst string) error {
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
