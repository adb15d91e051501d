package watchdog

import (
	"context"
	"fmt"
	"net"
	"os"
	"strconv"
	"time"

	"github.com/jonboulle/clockwork"
)

// Notifier sends notifications to the service manager. The zero value (and nil) does
// nothing.
type Notifier struct {
	Socket string // $NOTIFY_SOCKET; "" disables
}

// FromEnv is the notifier of $NOTIFY_SOCKET.
func FromEnv() *Notifier { return &Notifier{Socket: os.Getenv("NOTIFY_SOCKET")} }

// Notify sends one message, e.g. "READY=1" or "STATUS=loading ledger".
func (n *Notifier) Notify(state string) error {
	if n == nil || n.Socket == "" {
		return nil
	}
	name := n.Socket
	if name[0] == '@' {
		name = "\x00" + name[1:]
	}
	c, err := net.DialUnix("unixgram", nil, &net.UnixAddr{Name: name, Net: "unixgram"})
	if err != nil {
		return fmt.Errorf("watchdog: notify: %w", err)
	}
	defer c.Close()
	if _, err := c.Write([]byte(state)); err != nil {
		return fmt.Errorf("watchdog: notify: %w", err)
	}
	return nil
}

// Ready tells the manager the service has started.
func (n *Notifier) Ready() error { return n.Notify("READY=1") }

// Ping resets the watchdog timer.
func (n *Notifier) Ping() error { return n.Notify("WATCHDOG=1") }

// Interval is the watchdog period systemd asks for ($WATCHDOG_USEC), when it is meant for
// this process ($WATCHDOG_PID unset or equal to our pid).
func Interval() (time.Duration, bool) {
	us, err := strconv.ParseInt(os.Getenv("WATCHDOG_USEC"), 10, 64)
	if err != nil || us <= 0 {
		return 0, false
	}
	if p := os.Getenv("WATCHDOG_PID"); p != "" && p != strconv.Itoa(os.Getpid()) {
		return 0, false
	}
	return time.Duration(us) * time.Microsecond, true
}

// Run pings every period/2 while healthy() says so, until ctx ends. It skips a ping (so
// systemd will act) when healthy reports false; a nil healthy is always healthy.
func Run(ctx context.Context, clock clockwork.Clock, n *Notifier, period time.Duration, healthy func() bool) error {
	t := clock.NewTicker(period / 2)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.Chan():
			if healthy == nil || healthy() {
				if err := n.Ping(); err != nil {
					return err
				}
			}
		}
	}
}
