package pid1

import (
	"errors"
	"fmt"
	"net/netip"
	"strings"
)

// ErrCmdline marks a kernel command line the init cannot use.
var ErrCmdline = errors.New("bad kernel command line")

// Cmdline is what the init reads from the kernel command line (the boot partition's
// cmdline.txt): the partitions by device path and the maintenance network's address.
type Cmdline struct {
	Root  string       // pos.root: the read-only root partition (ext4)
	Slots string       // pos.slots: the A/B slot partition (ext4, read-write)
	Data  string       // pos.data: the data partition (ext4, read-write)
	Iface string       // pos.iface: the network interface (default eth0)
	Addr  netip.Prefix // pos.ip: its address and prefix; invalid when absent (no network)
	Gate  netip.Addr   // pos.gw: the default gateway, if any
}

// maxCmdline bounds the command line (the kernel's own limit on arm64 is 2048 bytes).
const maxCmdline = 4096

// ParseCmdline reads the pos.* words of a kernel command line; other words are the
// kernel's and ignored. The three partitions are required; each must be a /dev path.
func ParseCmdline(s string) (Cmdline, error) {
	if len(s) > maxCmdline {
		return Cmdline{}, fmt.Errorf("pid1: command line of %d bytes: %w", len(s), ErrCmdline)
	}
	c := Cmdline{Iface: "eth0"}
	for _, w := range strings.Fields(s) {
		k, v, ok := strings.Cut(w, "=")
		if !ok || !strings.HasPrefix(k, "pos.") {
			continue
		}
		var err error
		switch k {
		case "pos.root":
			c.Root, err = devPath(k, v)
		case "pos.slots":
			c.Slots, err = devPath(k, v)
		case "pos.data":
			c.Data, err = devPath(k, v)
		case "pos.iface":
			c.Iface, err = ifaceName(v)
		case "pos.ip":
			c.Addr, err = netip.ParsePrefix(v)
			if err == nil && !c.Addr.Addr().Is4() {
				err = errors.New("not IPv4")
			}
		case "pos.gw":
			c.Gate, err = netip.ParseAddr(v)
			if err == nil && !c.Gate.Is4() {
				err = errors.New("not IPv4")
			}
		}
		if err != nil {
			return Cmdline{}, fmt.Errorf("pid1: %s: %v: %w", k, err, ErrCmdline)
		}
	}
	for _, req := range []struct{ k, v string }{{"pos.root", c.Root}, {"pos.slots", c.Slots}, {"pos.data", c.Data}} {
		if req.v == "" {
			return Cmdline{}, fmt.Errorf("pid1: %s missing: %w", req.k, ErrCmdline)
		}
	}
	return c, nil
}

func devPath(k, v string) (string, error) {
	name, ok := strings.CutPrefix(v, "/dev/")
	if !ok || name == "" || strings.Contains(name, "..") || strings.ContainsAny(name, "\x00") {
		return "", fmt.Errorf("%q is not a /dev path", v)
	}
	return v, nil
}

func ifaceName(v string) (string, error) {
	if v == "" || len(v) > 15 || strings.ContainsAny(v, "/\x00 ") {
		return "", fmt.Errorf("%q is not an interface name", v)
	}
	return v, nil
}
