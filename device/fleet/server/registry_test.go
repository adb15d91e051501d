package server

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/nats-io/nkeys"
)

func TestRegistry(t *testing.T) {
	dir := t.TempDir()
	reg, err := InitData(dir)
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(filepath.Join(dir, OperatorSeedFile))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("operator seed: %v %v", st, err)
	}
	kp, _ := nkeys.CreateUser()
	pub, _ := kp.PublicKey()
	reg.Terminals = append(reg.Terminals, Terminal{ID: "T1", Retailer: 4, NKey: pub})
	if err := SaveRegistry(dir, reg); err != nil {
		t.Fatal(err)
	}
	again, err := InitData(dir) // a second start keeps the key and the terminals
	if err != nil || again.Operator != reg.Operator || len(again.Terminals) != 1 {
		t.Fatalf("second InitData: %+v %v", again, err)
	}
	for _, bad := range []Registry{
		{Operator: reg.Operator, Terminals: []Terminal{{ID: "T1", NKey: pub}, {ID: "T1", NKey: reg.Operator}}},
		{Operator: reg.Operator, Terminals: []Terminal{{ID: "a.b", NKey: pub}}},
		{Operator: reg.Operator, Terminals: []Terminal{{ID: "T2", NKey: "SUABC"}}},
		{Operator: "x"},
	} {
		if bad.Check() == nil {
			t.Errorf("registry accepted: %+v", bad)
		}
	}
	p := TerminalPermissions("T1")
	if !slices.Contains(p.Publish.Allow, "journal.T1.>") || len(p.Subscribe.Allow) != 1 || p.Subscribe.Allow[0] != "_INBOX_T1.>" {
		t.Fatalf("permissions %+v", p)
	}
	for _, s := range p.Publish.Allow {
		if s == ">" || s == "$KV.>" || s == "journal.>" {
			t.Fatalf("terminal may publish %s", s)
		}
	}
}

// TestRegistryDeviceKey: a terminal's device key round-trips through terminals.json; a
// registry written before device keys (no device_pub) still reads, its terminals "not
// registered"; a device_pub that is not a canonical base64 Ed25519 key is refused.
func TestRegistryDeviceKey(t *testing.T) {
	kp, _ := nkeys.CreateUser()
	pub, _ := kp.PublicKey()
	okp, _ := nkeys.CreateUser()
	op, _ := okp.PublicKey()
	old := []byte(`{"operator":"` + op + `","terminals":[{"id":"T1","retailer":4,"nkey":"` + pub + `"}]}`)
	r, err := ParseRegistry(old)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := r.Terminals[0].DeviceKey(); ok {
		t.Error("old registry: a device key")
	}
	if ks := r.DeviceKeys()("T1"); len(ks) != 0 {
		t.Error("old registry: DeviceKeys gives one")
	}
	dev := make([]byte, 32)
	dev[0] = 9
	r.Terminals[0].DevicePub = EncodeDeviceKey(dev)
	dir := t.TempDir()
	if err := SaveRegistry(dir, r); err != nil {
		t.Fatal(err)
	}
	again, err := LoadRegistry(dir)
	if err != nil {
		t.Fatal(err)
	}
	if ks := again.DeviceKeys()("T1"); len(ks) != 1 || !slices.Equal(ks[0], dev) {
		t.Fatalf("device keys %x", ks)
	}
	// A key replaced is kept, retired: the records it signed still verify.
	was := slices.Clone(dev)
	dev[0] = 10
	again.Terminals[0].RetiredDevicePubs = []string{again.Terminals[0].DevicePub}
	again.Terminals[0].DevicePub = EncodeDeviceKey(dev)
	if err := SaveRegistry(dir, again); err != nil {
		t.Fatal(err)
	}
	if again, err = LoadRegistry(dir); err != nil {
		t.Fatal(err)
	}
	if ks := again.DeviceKeys()("T1"); len(ks) != 2 || !slices.Equal(ks[0], dev) || !slices.Equal(ks[1], was) {
		t.Fatalf("device keys with one retired %x", ks)
	}
	r.Terminals[0].RetiredDevicePubs = []string{EncodeDeviceKey(was)} // retired, none in force
	r.Terminals[0].DevicePub = ""
	if r.Check() == nil {
		t.Error("retired keys without one in force accepted")
	}
	r.Terminals[0].DevicePub, r.Terminals[0].RetiredDevicePubs = EncodeDeviceKey(dev), []string{"AAAA"}
	if r.Check() == nil {
		t.Error("a bad retired key accepted")
	}
	r.Terminals[0].RetiredDevicePubs = nil
	for _, bad := range []string{"AAAA", "!!", EncodeDeviceKey(dev) + "\n", EncodeDeviceKey(make([]byte, 31))} {
		r.Terminals[0].DevicePub = bad
		if r.Check() == nil {
			t.Errorf("device_pub %q accepted", bad)
		}
	}
}
