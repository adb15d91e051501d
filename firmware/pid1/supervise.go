package pid1

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/jonboulle/clockwork"
)

// ErrStopped is returned by Supervisor.Run when the service exited with a status that
// restarting cannot mend (posboot's 3: no bootable slot, 4: its inputs unusable).
var ErrStopped = errors.New("service stopped for good")

// Proc is a started service process.
type Proc interface {
	// Wait blocks until the process ends and returns its exit status (-1 when killed by
	// a signal).
	Wait() int
	// Kill ends it at once (SIGKILL).
	Kill()
}

// Supervisor runs a service the way scripts/posboot.service has systemd run posboot:
// Restart=always with RestartSec, RestartPreventExitStatus, Type=notify and WatchdogSec.
type Supervisor struct {
	Name string
	// Start starts the service once.
	Start func() (Proc, error)
	// Notify carries the service's sd_notify messages (one line each: READY=1, WATCHDOG=1).
	Notify <-chan string
	// Watchdog kills the service when this long passes without WATCHDOG=1 since its start
	// or its last ping; 0: no watchdog.
	Watchdog time.Duration
	// RestartDelay is the pause before a restart.
	RestartDelay time.Duration
	// StopOn are the exit statuses after which the service is not restarted.
	StopOn []int
	// Uptime says how long since power-on (for the ready line); nil: not said.
	Uptime func() time.Duration
	Clock  clockwork.Clock
	Log    *slog.Logger
}

// Run supervises until ctx ends or the service stops for good.
func (s *Supervisor) Run(ctx context.Context) error {
	for starts := 1; ; starts++ {
		status, err := s.once(ctx, starts)
		if err != nil {
			return err
		}
		for _, st := range s.StopOn {
			if status == st {
				s.Log.Error("service stopped for good", "service", s.Name, "status", status)
				return fmt.Errorf("pid1: %s exit status %d: %w", s.Name, status, ErrStopped)
			}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-s.Clock.After(s.RestartDelay):
		}
	}
}

// once starts the service and watches it until it exits; it returns the exit status.
func (s *Supervisor) once(ctx context.Context, starts int) (int, error) {
	p, err := s.Start()
	if err != nil {
		s.Log.Error("service start failed", "service", s.Name, "err", err)
		return -1, nil
	}
	s.Log.Info("service started", "service", s.Name, "start", starts)
	exited := make(chan int, 1)
	go func() { exited <- p.Wait() }()
	var dog <-chan time.Time
	var timer clockwork.Timer
	if s.Watchdog > 0 {
		timer = s.Clock.NewTimer(s.Watchdog)
		defer timer.Stop()
		dog = timer.Chan()
	}
	for {
		select {
		case <-ctx.Done():
			p.Kill()
			<-exited
			return -1, ctx.Err()
		case st := <-exited:
			s.Log.Warn("service exited", "service", s.Name, "status", st)
			s.drain()
			return st, nil
		case msg := <-s.Notify:
			s.notified(msg, timer)
		case <-dog:
			s.Log.Error("watchdog expired: killing the service", "service", s.Name, "after", s.Watchdog)
			p.Kill()
			dog = nil
		}
	}
}

// notified acts on one sd_notify datagram (several NAME=VALUE lines).
func (s *Supervisor) notified(msg string, timer clockwork.Timer) {
	for _, line := range strings.Split(msg, "\n") {
		switch {
		case line == "READY=1":
			args := []any{"service", s.Name}
			if s.Uptime != nil {
				args = append(args, "since_power_on", s.Uptime().Round(10*time.Millisecond).String())
			}
			s.Log.Info("service ready", args...)
		case line == "WATCHDOG=1" && timer != nil:
			timer.Reset(s.Watchdog)
		case line == "STOPPING=1":
			s.Log.Info("service stopping", "service", s.Name)
		case strings.HasPrefix(line, "STATUS="):
			s.Log.Info("service status", "service", s.Name, "status", strings.TrimPrefix(line, "STATUS="))
		}
	}
}

// drain drops the notifications a process sent before it exited: they are not the next one's.
func (s *Supervisor) drain() {
	for {
		select {
		case <-s.Notify:
		default:
			return
		}
	}
}
