package pid1

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
)

type fakeProc struct {
	done   chan int
	killed chan struct{}
	once   sync.Once
}

func (p *fakeProc) Wait() int { return <-p.done }
func (p *fakeProc) Kill() {
	p.once.Do(func() { close(p.killed); p.done <- -1 })
}

// TestSupervisorRestartsAndStops: a service that exits 1 is restarted after the delay;
// one that exits 3 is not (posboot's "no bootable slot"), as the unit's
// RestartPreventExitStatus.
func TestSupervisorRestartsAndStops(t *testing.T) {
	clk := clockwork.NewFakeClock()
	procs := make(chan *fakeProc, 4)
	s := &Supervisor{Name: "posboot", Clock: clk, RestartDelay: 2 * time.Second, StopOn: []int{3, 4},
		Notify: make(chan string), Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Start: func() (Proc, error) {
			p := &fakeProc{done: make(chan int, 1), killed: make(chan struct{})}
			procs <- p
			return p, nil
		}}
	errc := make(chan error, 1)
	go func() { errc <- s.Run(context.Background()) }()
	first := <-procs
	first.done <- 1
	if err := clk.BlockUntilContext(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	select {
	case <-procs:
		t.Fatal("restarted before the delay")
	default:
	}
	clk.Advance(2 * time.Second)
	second := <-procs
	second.done <- 3
	if err := <-errc; !errors.Is(err, ErrStopped) {
		t.Fatalf("err %v, want ErrStopped", err)
	}
}

// TestSupervisorWatchdog: a service that stops pinging is killed after the watchdog
// period; pings keep it alive.
func TestSupervisorWatchdog(t *testing.T) {
	clk := clockwork.NewFakeClock()
	notify := make(chan string)
	procs := make(chan *fakeProc, 4)
	s := &Supervisor{Name: "posboot", Clock: clk, Watchdog: 30 * time.Second, RestartDelay: time.Second,
		Notify: notify, Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Start: func() (Proc, error) {
			p := &fakeProc{done: make(chan int, 1), killed: make(chan struct{})}
			procs <- p
			return p, nil
		}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _ = s.Run(ctx) }()
	p := <-procs
	notify <- "READY=1"
	for range 3 {
		if err := clk.BlockUntilContext(ctx, 1); err != nil {
			t.Fatal(err)
		}
		clk.Advance(20 * time.Second)
		notify <- "WATCHDOG=1"
		notify <- "STATUS=sync" // taken only once the ping has reset the timer
	}
	select {
	case <-p.killed:
		t.Fatal("killed while pinging")
	default:
	}
	clk.Advance(31 * time.Second)
	select {
	case <-p.killed:
	case <-time.After(5 * time.Second):
		t.Fatal("not killed after the watchdog period without a ping")
	}
}
