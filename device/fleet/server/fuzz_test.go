package server

import (
	"testing"

	"github.com/nats-io/nkeys"
)

// FuzzParseRegistry: a registry that parses passes Check; never a panic.
func FuzzParseRegistry(f *testing.F) {
	kp, _ := nkeys.CreateUser()
	pub, _ := kp.PublicKey()
	f.Add([]byte(`{"operator":"` + pub + `","terminals":[]}`))
	f.Add([]byte(`{"operator":"` + pub + `","terminals":[{"id":"T1","retailer":4,"nkey":"` + pub + `"}]}`))
	f.Add([]byte(`{"operator":"x"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := ParseRegistry(b)
		if err == nil && r.Check() != nil {
			t.Fatal("parsed registry does not check")
		}
	})
}
