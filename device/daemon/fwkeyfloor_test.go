package daemon

import (
	"crypto/ed25519"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/packterm/pos/firmware/bundle/bundletest"
	"github.com/packterm/pos/firmware/flash"
	"github.com/packterm/pos/firmware/fwkey"
	"github.com/packterm/pos/validate/journal"
)

// Issue 47, the retailer with root (or a technician at the board) puts back an older
// firmware key statement, or removes it, to bring a retired firmware key back into trust:
// statement 1 (the anchor key and a second key) then 2 (the second key retired) installed
// over the link are journalled; with statement 1 copied back over 2, or none, the terminal
// starts with DONNÉES REFUSÉES and judges and pays nothing; statement 2 back, it pays.
func TestOlderFirmwareKeyStatementRefused(t *testing.T) {
	tb := newTestBlock(t, 12)
	b := newBoard(t, tb)
	b.installLedger(t, tb)
	b.installStatus(t, tb)
	fw, retired := bundletest.NewKey(), bundletest.NewKey()
	_, booted := committedSlots(t, fw, "1.0.0")
	b.cfg.Maintenance = "tcp:" + freeAddr(t)
	b.cfg.Keys.Firmware = []string{writeFirmwarePub(t, fw)}
	stmt := map[uint64][]byte{}
	var err error
	for v, keys := range map[uint64][]ed25519.PublicKey{1: {fw.Pub, retired.Pub}, 2: {fw.Pub}} {
		if stmt[v], err = fwkey.SignStatement(v, keys, fw.Priv); err != nil {
			t.Fatal(err)
		}
	}
	o := Options{Booted: booted, RestartQuiet: 200 * time.Millisecond}
	for _, v := range []uint64{1, 2} {
		d := b.start(t, o)
		if res, err := sendBytes(tcpClient(d.r.Maintenance, testToken), flash.Keys, stmt[v]); err != nil {
			t.Fatalf("statement %d: %+v %v", v, res, err)
		}
		if err := d.ended(10 * time.Second); !errors.Is(err, ErrRestart) {
			t.Fatalf("Run returned %v, want a restart", err)
		}
	}
	path := filepath.Join(booted.Root, fwkey.StatementFile)
	_, code := tb.winner(t, func(lot int64) bool { return lot > 0 && lot <= 30_00 })
	for _, put := range []func() error{
		func() error { return os.WriteFile(path, stmt[1], 0o644) },
		func() error { return os.Remove(path) },
	} {
		if err := put(); err != nil {
			t.Fatal(err)
		}
		d := b.start(t, o)
		d.expect("DONNÉES REFUSÉES")
		d.scan(b, code, "DONNÉES REFUSÉES")
		if err := d.stop(); err != nil {
			t.Fatal(err)
		}
	}
	if k := kinds(records(t, b.cfg.DataDir)); k[journal.KindPayout] != 0 {
		t.Fatalf("paid on a rolled-back firmware trust: %v", k)
	}
	if err := os.WriteFile(path, stmt[2], 0o644); err != nil {
		t.Fatal(err)
	}
	d := b.start(t, o)
	d.scan(b, code, "GAGNANT")
	if err := d.stop(); err != nil {
		t.Fatal(err)
	}
}
