package daemon

import (
	"bytes"
	"context"
	"net"
	"path/filepath"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/packterm/pos/firmware/bundle"
	"github.com/packterm/pos/firmware/bundle/bundletest"
	"github.com/packterm/pos/firmware/slot"
	"github.com/packterm/pos/firmware/watchdog"
)

// notifySocket is a fake $NOTIFY_SOCKET: a unix datagram socket that collects what the
// daemon tells the service manager.
type notifySocket struct {
	path string
	msgs chan string
}

func newNotifySocket(t *testing.T) *notifySocket {
	t.Helper()
	n := &notifySocket{path: filepath.Join(t.TempDir(), "notify"), msgs: make(chan string, 64)}
	c, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: n.path, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	go func() {
		buf := make([]byte, 256)
		for {
			k, err := c.Read(buf)
			if err != nil {
				close(n.msgs)
				return
			}
			n.msgs <- string(buf[:k])
		}
	}()
	return n
}

// next returns the next message, "" when none comes within d.
func (n *notifySocket) next(d time.Duration) string {
	select {
	case m := <-n.msgs:
		return m
	case <-time.After(d):
		return ""
	}
}

func (n *notifySocket) expect(t *testing.T, want string) {
	t.Helper()
	if got := n.next(10 * time.Second); got != want {
		t.Fatalf("service manager told %q, want %q", got, want)
	}
}

// noPing advances the clock by one ping period and checks that no WATCHDOG=1 came.
func (n *notifySocket) noPing(t *testing.T, clock *clockwork.FakeClock, half time.Duration, why string) {
	t.Helper()
	clock.Advance(half)
	if m := n.next(300 * time.Millisecond); m != "" {
		t.Fatalf("%s: service manager told %q", why, m)
	}
}

// trialSlots is a slot root with 1.0.0 committed and 2.0.0 just installed (on trial).
func trialSlots(t *testing.T) (*slot.Store, string) {
	t.Helper()
	k := bundletest.NewKey()
	store, _ := firmwareSlots(t, k, "1.0.0")
	if err := store.MarkGood(); err != nil {
		t.Fatal(err)
	}
	target := FirmwareTarget("rpi")
	r, err := bundle.NewReader(bytes.NewReader(k.Build(bundletest.Spec{Version: "2.0.0", Target: &target})), k.Trust())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.Install(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	return store, filepath.Dir(store.Dir(slot.A))
}

func onTrial(t *testing.T, store *slot.Store) bool {
	t.Helper()
	st, err := store.State()
	if err != nil {
		t.Fatal(err)
	}
	return st.Trial
}

// A daemon started on a trial slot tells systemd READY=1 once its first screen is shown,
// but marks the slot good and pings the watchdog only once healthy: with no ledger,
// never; with a ledger but a printer that does not answer, not yet; once the printer
// answers, the slot is committed and WATCHDOG=1 goes every half period.
func TestTrialSlotCommittedOnceHealthy(t *testing.T) {
	tb := newTestBlock(t, 9)
	b := newBoard(t, tb)
	store, root := trialSlots(t)
	n := newNotifySocket(t)
	const period = 10 * time.Second
	clock := clockwork.NewFakeClock()
	o := Options{Booted: bootAsPosboot(t, store, root), Notifier: &watchdog.Notifier{Socket: n.path}, Watchdog: period, Clock: clock}
	if !o.Booted.Trial || o.Booted.Slot != slot.B {
		t.Fatalf("booted %+v, want slot b on trial", o.Booted)
	}

	// No ledger: live, never healthy.
	d := b.start(t, o)
	n.expect(t, "READY=1")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := clock.BlockUntilContext(ctx, 1); err != nil { // the watchdog's ticker
		t.Fatal(err)
	}
	for range 3 {
		n.noPing(t, clock, period/2, "no ledger")
	}
	if !d.r.Health.Live() || d.r.Health.OK() || !onTrial(t, store) {
		t.Fatalf("no ledger: live %v, OK %v, on trial %v", d.r.Health.Live(), d.r.Health.OK(), onTrial(t, store))
	}
	if err := d.stop(); err != nil {
		t.Fatal(err)
	}
	n.expect(t, "STOPPING=1")

	// A ledger, but the printer unplugged: not healthy yet, so neither pings nor commit.
	b.installLedger(t, tb)
	b.pr.Unplug()
	o.Booted = bootAsPosboot(t, store, root) // systemd restarted it: the second trial start
	d = b.start(t, o)
	n.expect(t, "READY=1")
	if err := clock.BlockUntilContext(ctx, 2); err != nil { // the ticker and the health retry
		t.Fatal(err)
	}
	for range 2 {
		n.noPing(t, clock, healthRetry, "printer unplugged")
	}
	if d.r.Health.OK() || !onTrial(t, store) {
		t.Fatal("committed before the printer answered")
	}

	// The printer comes back: healthy at the next retry, committed, pinging.
	if err := b.pr.Replug(); err != nil {
		t.Fatal(err)
	}
	wait(t, "healthy", func() bool {
		clock.Advance(healthRetry)
		select {
		case <-d.r.Health.Healthy():
			return true
		case <-time.After(50 * time.Millisecond):
			return false
		}
	})
	wait(t, "the trial slot marked good", func() bool { return !onTrial(t, store) })
	pinged := false
	for i := 0; i < 10 && !pinged; i++ {
		clock.Advance(period / 2)
		switch m := n.next(time.Second); m {
		case "WATCHDOG=1":
			pinged = true
		case "":
		default:
			t.Fatalf("service manager told %q", m)
		}
	}
	if !pinged {
		t.Fatal("a healthy daemon does not ping the watchdog")
	}
	if st, _ := store.State(); st.Active != slot.B || st.Previous != slot.A {
		t.Fatalf("state after the commit: %+v", st)
	}
	if err := d.stop(); err != nil {
		t.Fatal(err)
	}
}
