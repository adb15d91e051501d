package flash_test

import (
	"bytes"
	"context"
	"io"
	"net"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/packterm/pos/firmware/bundle/bundletest"
	"github.com/packterm/pos/firmware/flash"
)

// realBinaries returns posd and posctl of a terminal from dist/ (scripts/build.sh; bench.sh
// builds it first), else the test binary twice: a Go binary of the same order of size.
func realBinaries(b *testing.B) (posd, posctl []byte, what string) {
	for _, arch := range []string{"armv7", "arm64"} {
		d, errd := os.ReadFile(filepath.Join("..", "..", "dist", "posd-linux-"+arch))
		c, errc := os.ReadFile(filepath.Join("..", "..", "dist", "posctl-linux-"+arch))
		if errd == nil && errc == nil {
			return d, c, "dist/posd and posctl-linux-" + arch
		}
	}
	self, err := os.ReadFile(os.Args[0])
	if err != nil {
		b.Fatal(err)
	}
	return self, self, "test binary twice (no dist/: scripts/build.sh)"
}

// BenchmarkFlashInstallLoopback flashes a bundle of the real binaries over loopback TCP
// into a terminal's slot store, install included (target: ≤ 2 s).
func BenchmarkFlashInstallLoopback(b *testing.B) {
	posd, posctl, what := realBinaries(b)
	bun := key.Build(bundletest.Spec{Version: "2.0.0", Posd: posd, Posctl: posctl})
	b.Logf("bundle of %s: %d bytes", what, len(bun))
	b.SetBytes(int64(len(bun)))
	var total time.Duration
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		tm := newTerminal(b)
		tm.srv.SyncEvery = 0 // the production default, not the tests' small one
		c := tm.client(token, 0)
		b.StartTimer()
		start := time.Now()
		if _, err := c.Send(context.Background(), flash.Firmware, bytes.NewReader(bun), int64(len(bun))); err != nil {
			b.Fatal(err)
		}
		total += time.Since(start)
	}
	b.ReportMetric(total.Seconds()/float64(b.N), "s/install")
	b.ReportMetric(float64(len(bun)), "bundle_bytes")
}

// lineRate is 115200 baud 8N1: 10 bits a byte.
const lineRate = 115200 / 10

// slowConn delivers each write after the time its bytes take on the line (per direction,
// real time: used by a benchmark only).
type slowConn struct {
	net.Conn
	mu   sync.Mutex
	next time.Time
}

func (c *slowConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	now := time.Now()
	if c.next.Before(now) {
		c.next = now
	}
	c.next = c.next.Add(time.Duration(float64(len(p)) / lineRate * float64(time.Second)))
	wait := time.Until(c.next)
	c.mu.Unlock()
	time.Sleep(wait)
	return c.Conn.Write(p)
}

// BenchmarkFlash115200 flashes a 24 KiB bundle over an emulated 115200-baud line (each
// direction carries 11 520 bytes/s) and reports the payload rate as a share of the line's
// raw rate (target: within 10 %, i.e. ≥ 90 %).
func BenchmarkFlash115200(b *testing.B) {
	posd := bytes.Repeat([]byte("posd"), 6<<10)
	bun := key.Build(bundletest.Spec{Version: "2.0.0", Posd: posd})
	var total time.Duration
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		tm := newTerminal(b)
		hostEnd, devEnd := net.Pipe()
		ctx, cancel := context.WithCancel(context.Background())
		served := make(chan struct{})
		go func() { tm.srv.Serve(ctx, &slowConn{Conn: devEnd}); close(served) }()
		c := &flash.Client{Token: token, Attempts: 1, Dial: func(context.Context) (io.ReadWriteCloser, error) {
			return &slowConn{Conn: hostEnd}, nil
		}}
		b.StartTimer()
		start := time.Now()
		if _, err := c.Send(context.Background(), flash.Firmware, bytes.NewReader(bun), int64(len(bun))); err != nil {
			b.Fatal(err)
		}
		total += time.Since(start)
		b.StopTimer()
		cancel()
		devEnd.Close()
		<-served
	}
	rate := float64(len(bun)) * float64(b.N) / total.Seconds()
	b.ReportMetric(rate, "B/s")
	b.ReportMetric(100*rate/lineRate, "%_of_line")
}
