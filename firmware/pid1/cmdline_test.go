package pid1

import (
	"errors"
	"net/netip"
	"testing"
)

func TestParseCmdline(t *testing.T) {
	c, err := ParseCmdline("console=ttyAMA0 quiet pos.root=/dev/vda2 pos.slots=/dev/vda3 pos.data=/dev/vda4 pos.ip=10.0.2.15/24 pos.gw=10.0.2.2\n")
	if err != nil {
		t.Fatal(err)
	}
	want := Cmdline{Root: "/dev/vda2", Slots: "/dev/vda3", Data: "/dev/vda4", Iface: "eth0",
		Addr: netip.MustParsePrefix("10.0.2.15/24"), Gate: netip.MustParseAddr("10.0.2.2")}
	if c != want {
		t.Fatalf("got %+v, want %+v", c, want)
	}
	for _, bad := range []string{
		"pos.root=/dev/vda2 pos.slots=/dev/vda3",                             // data missing
		"pos.root=vda2 pos.slots=/dev/vda3 pos.data=/dev/vda4",               // not /dev
		"pos.root=/dev/../etc pos.slots=/dev/vda3 pos.data=/dev/vda4",        // escapes /dev
		"pos.root=/dev/a pos.slots=/dev/b pos.data=/dev/c pos.ip=10.0.2.15",  // no prefix
		"pos.root=/dev/a pos.slots=/dev/b pos.data=/dev/c pos.ip=fe80::1/64", // not IPv4
		"pos.root=/dev/a pos.slots=/dev/b pos.data=/dev/c pos.iface=a/b",     // bad name
	} {
		if _, err := ParseCmdline(bad); !errors.Is(err, ErrCmdline) {
			t.Errorf("%q: err %v, want ErrCmdline", bad, err)
		}
	}
}

func FuzzParseCmdline(f *testing.F) {
	f.Add("pos.root=/dev/vda2 pos.slots=/dev/vda3 pos.data=/dev/vda4 pos.ip=10.0.2.15/24")
	f.Add("console=ttyAMA0 pos.root=/dev/mmcblk0p2")
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseCmdline(s)
		if err != nil {
			if !errors.Is(err, ErrCmdline) {
				t.Fatalf("error not ErrCmdline: %v", err)
			}
			return
		}
		if c.Root == "" || c.Slots == "" || c.Data == "" || c.Iface == "" {
			t.Fatalf("accepted without a partition: %+v", c)
		}
	})
}
