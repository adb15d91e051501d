package pid1

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/jonboulle/clockwork"
	"golang.org/x/sys/unix"
)

// Layout is where stage 2 puts the partitions and what it starts (scripts/posboot.service's
// paths: the slot root, posd's data directory and the directory of its configuration).
type Layout struct {
	SlotRoot string   // the slot partition: /var/lib/pos/slots
	Data     string   // the data partition: /data
	Binds    []Bind   // directories of the data partition bound in place
	Service  []string // posboot and its arguments
	Notify   string   // the notify socket's path
	User     *User    // who the service runs as; nil: root
}

// Bind is a directory of the data partition bound over a directory of the root.
type Bind struct{ From, To string }

// TerminalLayout is the image's layout.
func TerminalLayout() Layout {
	return Layout{
		SlotRoot: "/var/lib/pos/slots",
		Data:     "/data",
		Binds:    []Bind{{"/data/posd", "/var/lib/posd"}, {"/data/conf", "/etc/pos/conf"}},
		Service: []string{"/usr/local/bin/posboot", "--root", "/var/lib/pos/slots", "--max-boots", "3",
			"--config", "/etc/pos/conf/posd.toml"},
		Notify: "/run/posinit/notify",
		User: &User{UID: PosUser, GID: PosUser,
			Owned:   []string{"/var/lib/pos/slots", "/data/posd", "/data/conf"},
			Devices: []string{"/dev/hvc*", "/dev/ttyUSB*", "/dev/ttyACM*", "/dev/gpiochip*", "/dev/gpiomem"}},
	}
}

// Stage2 mounts the writable partitions, brings the network up and supervises posboot
// until it stops for good; then it returns (the caller, pid 1, must not exit).
func Stage2(ctx context.Context, log *slog.Logger, l Layout) error {
	raw, err := os.ReadFile("/proc/cmdline")
	if err != nil {
		return fmt.Errorf("pid1: %w", err)
	}
	c, err := ParseCmdline(string(raw))
	if err != nil {
		return err
	}
	for _, m := range []struct{ dst, mode string }{{"/run", "mode=0755"}, {"/tmp", "mode=1777"}} {
		if err := unix.Mount("tmpfs", m.dst, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, m.mode); err != nil {
			return fmt.Errorf("pid1: mount %s: %w", m.dst, err)
		}
	}
	if err := mountData(c.Slots, l.SlotRoot, 0); err != nil { // posd runs from its slot
		return err
	}
	if err := mountData(c.Data, l.Data, unix.MS_NOEXEC); err != nil {
		return err
	}
	for _, b := range l.Binds {
		if err := os.MkdirAll(b.From, 0o750); err != nil {
			return fmt.Errorf("pid1: %w", err)
		}
		if err := unix.Mount(b.From, b.To, "", unix.MS_BIND, ""); err != nil {
			return fmt.Errorf("pid1: bind %s on %s: %w", b.From, b.To, err)
		}
	}
	if err := NetworkUp(c); err != nil {
		log.Error("network", "err", err) // the terminal runs without its maintenance link
	} else if c.Addr.IsValid() {
		log.Info("network up", "iface", c.Iface, "addr", c.Addr.String())
	}
	if u := l.User; u != nil {
		if err := u.handOver(); err != nil {
			return err
		}
		log.Info("service runs as", "uid", u.UID, "gid", u.GID, "owns", u.Owned)
	}
	go WatchSlots(ctx, l.SlotRoot, time.Second, clockwork.NewRealClock(), log)
	notify, err := listenNotify(ctx, l.Notify, l.User, log)
	if err != nil {
		return err
	}
	s := &Supervisor{
		Name: filepath.Base(l.Service[0]), Notify: notify, Watchdog: 30 * time.Second,
		RestartDelay: 2 * time.Second, StopOn: []int{3, 4}, Uptime: Uptime,
		Clock: clockwork.NewRealClock(), Log: log,
		Start: func() (Proc, error) { return startService(l, log) },
	}
	return s.Run(ctx)
}

// mountData mounts an ext4 partition read-write; the journal replays what a power cut
// left (synchronous directory updates: the slot store and the journal fsync anyway).
func mountData(dev, dst string, flags uintptr) error {
	if err := waitDevice(dev, 10*time.Second); err != nil {
		return err
	}
	if err := unix.Mount(dev, dst, "ext4", flags|unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOATIME|unix.MS_DIRSYNC, "data=ordered"); err != nil {
		return fmt.Errorf("pid1: mount %s on %s: %w", dev, dst, err)
	}
	return nil
}

// Uptime is the time since power-on (CLOCK_BOOTTIME).
func Uptime() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_BOOTTIME, &ts); err != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}

type cmdProc struct{ c *exec.Cmd }

func (p cmdProc) Wait() int {
	_ = p.c.Wait()
	if p.c.ProcessState == nil {
		return -1
	}
	return p.c.ProcessState.ExitCode()
}

func (p cmdProc) Kill() { _ = p.c.Process.Kill() }

func startService(l Layout, log *slog.Logger) (Proc, error) {
	c := exec.Command(l.Service[0], l.Service[1:]...)
	c.Stdout, c.Stderr = os.Stdout, os.Stderr
	c.Dir = "/"
	c.Env = []string{"PATH=/usr/local/bin:/sbin", "HOME=/", "TZ=Europe/Paris",
		"NOTIFY_SOCKET=" + l.Notify, "WATCHDOG_USEC=30000000"}
	if u := l.User; u != nil {
		if err := u.devices(); err != nil {
			log.Warn("devices not handed to the service's user", "err", err) // posd says which part it misses
		}
		u.runAs(c)
	}
	if err := c.Start(); err != nil {
		return nil, fmt.Errorf("pid1: start %s: %w", l.Service[0], err)
	}
	return cmdProc{c}, nil
}

// listenNotify opens the notify socket (the service's user may send to it) and passes
// each datagram on.
func listenNotify(ctx context.Context, path string, u *User, log *slog.Logger) (<-chan string, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("pid1: %w", err)
	}
	_ = os.Remove(path)
	conn, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: path, Net: "unixgram"})
	if err != nil {
		return nil, fmt.Errorf("pid1: notify socket: %w", err)
	}
	if u != nil {
		if err := os.Chown(path, int(u.UID), int(u.GID)); err != nil {
			conn.Close()
			return nil, fmt.Errorf("pid1: notify socket: %w", err)
		}
	}
	out := make(chan string, 16)
	go func() {
		<-ctx.Done()
		conn.Close()
	}()
	go func() {
		buf := make([]byte, 4096)
		for {
			n, _, err := conn.ReadFromUnix(buf)
			if err != nil {
				log.Debug("notify socket closed", "err", err)
				return
			}
			out <- string(buf[:n])
		}
	}()
	return out, nil
}
