package watchdog

import (
	"context"
	"net"
	"path/filepath"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
)

func listen(t *testing.T, name string) *net.UnixConn {
	c, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: name, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func recv(t *testing.T, c *net.UnixConn) string {
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	b := make([]byte, 256)
	n, err := c.Read(b)
	if err != nil {
		t.Fatal(err)
	}
	return string(b[:n])
}

func TestNotifyAndRun(t *testing.T) {
	path := filepath.Join(t.TempDir(), "notify")
	c := listen(t, path)
	n := &Notifier{Socket: path}
	if err := n.Ready(); err != nil {
		t.Fatal(err)
	}
	if got := recv(t, c); got != "READY=1" {
		t.Fatalf("got %q", got)
	}
	clock := clockwork.NewFakeClock()
	ctx, cancel := context.WithCancel(context.Background())
	healthy := make(chan bool, 1)
	healthy <- true
	done := make(chan error)
	go func() {
		done <- Run(ctx, clock, n, 10*time.Second, func() bool { h := <-healthy; healthy <- h; return h })
	}()
	clock.BlockUntilContext(ctx, 1)
	clock.Advance(5 * time.Second)
	if got := recv(t, c); got != "WATCHDOG=1" {
		t.Fatalf("got %q", got)
	}
	<-healthy
	healthy <- false
	clock.Advance(5 * time.Second)
	c.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
	if _, err := c.Read(make([]byte, 64)); err == nil {
		t.Fatal("pinged while unhealthy")
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if err := (*Notifier)(nil).Ping(); err != nil {
		t.Fatal(err)
	}
}

func TestAbstractSocketAndInterval(t *testing.T) {
	c := listen(t, "\x00packterm-watchdog-test")
	if err := (&Notifier{Socket: "@packterm-watchdog-test"}).Notify("STATUS=x"); err != nil {
		t.Fatal(err)
	}
	if got := recv(t, c); got != "STATUS=x" {
		t.Fatalf("got %q", got)
	}
	t.Setenv("WATCHDOG_USEC", "30000000")
	t.Setenv("WATCHDOG_PID", "")
	if d, ok := Interval(); !ok || d != 30*time.Second {
		t.Fatalf("Interval = %v %v", d, ok)
	}
	t.Setenv("WATCHDOG_PID", "1")
	if _, ok := Interval(); ok {
		t.Fatal("interval meant for another pid")
	}
}
