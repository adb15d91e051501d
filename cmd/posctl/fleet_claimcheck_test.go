package main

import (
	"crypto/ed25519"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/packterm/pos/device/fleet/fleettest"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/ledger"
)

// fleet serve and fleet service fail closed: without the operator's key, or with a
// ledger that does not verify against it, no claim service starts.
func TestFleetServeNeedsVerifiedLedgers(t *testing.T) {
	data, ledgers, keys := t.TempDir(), t.TempDir(), t.TempDir()
	blk := fleettest.NewBlock(t, 7, 2, func(codes.TicketID) (s [codes.SecretSize]byte) { return s }, func(codes.TicketID) uint8 { return 0 })
	path := blk.Write(t, ledgers)
	pub := filepath.Join(keys, "operator.pub")
	os.WriteFile(pub, ledger.MarshalPublicKey(blk.Key.Public().(ed25519.PublicKey), "test"), 0o644)
	other := filepath.Join(keys, "other.pub")
	otherKey, _, _ := ed25519.GenerateKey(nil)
	os.WriteFile(other, ledger.MarshalPublicKey(otherKey, "other"), 0o644)
	changed := append([]byte(nil), blk.Data...)
	changed[len(changed)-1] ^= 0x40

	for _, c := range []struct {
		name string
		args []string
		want string
		prep func()
	}{
		{"no key", []string{"fleet", "serve", "--data", data, "--ledgers", ledgers}, "pub", nil},
		{"another operator's key", []string{"fleet", "serve", "--data", data, "--ledgers", ledgers, "--pub", other}, "not trusted", nil},
		{"a changed ledger", []string{"fleet", "serve", "--data", data, "--ledgers", ledgers, "--pub", pub}, "block-7.ledger",
			func() { os.WriteFile(path, changed, 0o644) }},
		{"service, another key", []string{"fleet", "service", "--data", data, "--ledgers", ledgers, "--pub", other}, "not trusted",
			func() { os.WriteFile(path, blk.Data, 0o644) }},
	} {
		if c.prep != nil {
			c.prep()
		}
		out, err := runNet(t, c.args...)
		if err == nil || !strings.Contains(err.Error()+out, c.want) {
			t.Errorf("%s: %v\n%s", c.name, err, out)
		}
	}
}
