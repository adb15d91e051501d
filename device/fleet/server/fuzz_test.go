package server

import (
	"strings"
	"testing"

	"github.com/nats-io/nkeys"

	"github.com/packterm/pos/device/fleet"
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

// FuzzClaimEntry: an entry of the claims bucket that reads has a valid ticket whose key
// it is, and a valid holder; never a panic.
func FuzzClaimEntry(f *testing.F) {
	f.Add("t.42.28.2", []byte(`{"terminal":"A1","at":"2026-12-07T10:00:00Z","amount":3000}`))
	f.Add("t.42.28.2", []byte(`{"stream":"JOURNAL","seq":7}`))
	f.Add("t.42.28", []byte(`{"terminal":"A1"}`))
	f.Fuzz(func(t *testing.T, key string, value []byte) {
		id, c, err := ClaimEntry(key, value)
		if err == nil && (fleet.ClaimKey(id) != key || id.Validate() != nil || fleet.CheckTerminal(c.Terminal) != nil) {
			t.Fatalf("accepted %q: %v %+v", key, id, c)
		}
	})
}

// FuzzConflictEntry: a conflict that reads is stored under one of its terminals' keys;
// never a panic.
func FuzzConflictEntry(f *testing.F) {
	v := []byte(`{"ticket":{"Block":42,"Pack":28,"Position":2},"holder":{"terminal":"A1","at":"2026-12-07T10:00:00Z","amount":1},` +
		`"other":{"terminal":"B","at":"2026-12-07T10:00:00Z","amount":1,"unconfirmed":true}}`)
	f.Add("c.A1.42.28.2.B", v)
	f.Add("c.B.42.28.2", v)
	f.Add("c.C.42.28.2", v)
	f.Add("c.A1.42.28.2", []byte(`{"stream":"JOURNAL","seq":7}`))
	f.Fuzz(func(t *testing.T, key string, value []byte) {
		c, err := ConflictEntry(key, value)
		if err != nil {
			return
		}
		if !strings.HasPrefix(key, "c."+c.Holder.Terminal+".") && !strings.HasPrefix(key, "c."+c.Other.Terminal+".") {
			t.Fatalf("conflict of %s and %s accepted under %q", c.Holder.Terminal, c.Other.Terminal, key)
		}
	})
}

// FuzzStatusEntry: a status entry that reads is its key's retailer's list; never a panic.
func FuzzStatusEntry(f *testing.F) {
	f.Add("r.7001", statusFile(f, 7001))
	f.Add("r.7002", statusFile(f, 7001))
	f.Add("r.7001", []byte(`{"stream":"JOURNAL","seq":7}`))
	f.Add("r.07001", statusFile(f, 7001))
	f.Fuzz(func(t *testing.T, key string, value []byte) {
		s, err := StatusEntry(key, value)
		if err == nil && StatusKey(s.Retailer) != key {
			t.Fatalf("list of retailer %d accepted under %q", s.Retailer, key)
		}
	})
}
