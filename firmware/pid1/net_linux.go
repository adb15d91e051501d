package pid1

import (
	"fmt"
	"net"
	"unsafe"

	"golang.org/x/sys/unix"
)

// NetworkUp brings lo up and, when the command line gives an address, the interface with
// that address and the default route (no DHCP client in the image: the maintenance link's
// address is fixed on the command line).
func NetworkUp(c Cmdline) error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("pid1: socket: %w", err)
	}
	defer unix.Close(fd)
	if err := ifUp(fd, "lo"); err != nil {
		return err
	}
	if !c.Addr.IsValid() {
		return nil
	}
	addr := c.Addr.Addr().As4()
	mask := net.CIDRMask(c.Addr.Bits(), 32)
	for _, set := range []struct {
		req  uint
		ip   []byte
		what string
	}{{unix.SIOCSIFADDR, addr[:], "address"}, {unix.SIOCSIFNETMASK, mask, "netmask"}} {
		ifr, err := unix.NewIfreq(c.Iface)
		if err != nil {
			return fmt.Errorf("pid1: %s: %w", c.Iface, err)
		}
		if err := ifr.SetInet4Addr(set.ip); err != nil {
			return fmt.Errorf("pid1: %s %s: %w", c.Iface, set.what, err)
		}
		if err := unix.IoctlIfreq(fd, set.req, ifr); err != nil {
			return fmt.Errorf("pid1: %s %s: %w", c.Iface, set.what, err)
		}
	}
	if err := ifUp(fd, c.Iface); err != nil {
		return err
	}
	if c.Gate.IsValid() {
		return defaultRoute(fd, c.Gate.As4())
	}
	return nil
}

func ifUp(fd int, name string) error {
	ifr, err := unix.NewIfreq(name)
	if err != nil {
		return fmt.Errorf("pid1: %s: %w", name, err)
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
		return fmt.Errorf("pid1: %s flags: %w", name, err)
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP | unix.IFF_RUNNING)
	if err := unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr); err != nil {
		return fmt.Errorf("pid1: %s up: %w", name, err)
	}
	return nil
}

// rtentry is struct rtentry of <net/route.h> on 64-bit Linux.
type rtentry struct {
	pad1    uint64
	dst     unix.RawSockaddrInet4
	gateway unix.RawSockaddrInet4
	genmask unix.RawSockaddrInet4
	flags   uint16
	pad2    int16
	pad3    uint64
	pad4    uintptr
	metric  int16
	dev     uintptr
	mtu     uint64
	window  uint64
	irtt    uint16
}

func defaultRoute(fd int, gw [4]byte) error {
	rt := rtentry{flags: unix.RTF_UP | unix.RTF_GATEWAY}
	rt.dst.Family, rt.genmask.Family = unix.AF_INET, unix.AF_INET
	rt.gateway.Family, rt.gateway.Addr = unix.AF_INET, gw
	if _, _, e := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), unix.SIOCADDRT, uintptr(unsafe.Pointer(&rt))); e != 0 {
		return fmt.Errorf("pid1: default route: %w", e)
	}
	return nil
}
