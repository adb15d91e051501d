package server

import (
	"testing"

	"github.com/nats-io/nkeys"
)

// FuzzParseRegistry: a registry that parses passes Check, and each device key it holds
// (in force and retired) is one; never a panic.
func FuzzParseRegistry(f *testing.F) {
	kp, _ := nkeys.CreateUser()
	pub, _ := kp.PublicKey()
	f.Add([]byte(`{"operator":"` + pub + `","terminals":[]}`))
	f.Add([]byte(`{"operator":"` + pub + `","terminals":[{"id":"T1","retailer":4,"nkey":"` + pub + `"}]}`))
	f.Add([]byte(`{"operator":"` + pub + `","terminals":[{"id":"T1","retailer":4,"nkey":"` + pub + `","device_pub":"` +
		EncodeDeviceKey(make([]byte, 32)) + `"}]}`))
	f.Add([]byte(`{"operator":"x"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := ParseRegistry(b)
		if err == nil && r.Check() != nil {
			t.Fatal("parsed registry does not check")
		}
		if err != nil {
			return
		}
		for _, tm := range r.Terminals {
			if _, ok := tm.DeviceKey(); ok != (tm.DevicePub != "") {
				t.Fatalf("terminal %s: device_pub %q parsed %v", tm.ID, tm.DevicePub, ok)
			}
			if n := len(tm.DeviceKeys()); tm.DevicePub != "" && n != 1+len(tm.RetiredDevicePubs) {
				t.Fatalf("terminal %s: %d device keys of %d", tm.ID, n, 1+len(tm.RetiredDevicePubs))
			}
		}
	})
}
