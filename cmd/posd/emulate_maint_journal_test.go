package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/packterm/pos/device/config"
	"github.com/packterm/pos/firmware/flash"
	"github.com/packterm/pos/validate/journal"
)

// Issue 47: a configuration installed over the emulator's maintenance link is journalled
// as on a board (config-change, every setting it changes with old and new values); before,
// the emulator journalled nothing.
func TestEmulateMaintenanceJournalsConfig(t *testing.T) {
	dir := t.TempDir()
	_, ledgerPath, pub := crashBlock(t, filepath.Join(dir, "block"))
	sum := sha256.Sum256([]byte("tech-token"))
	conf := filepath.Join(dir, "posd.toml")
	toml := "[terminal]\nid = \"SHOP-7\"\nretailer = \"1\"\nretailer_name = \"Tabac test\"\n" +
		"[technician]\ntoken_sha256 = \"" + hex.EncodeToString(sum[:]) + "\"\n[keys]\noperator = [\"" + pub + "\"]\n[http]\nlisten = \"\"\n"
	if err := os.WriteFile(conf, []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	stdin, feed := io.Pipe()
	var out, errb bytes.Buffer
	rc := make(chan int, 1)
	data := filepath.Join(dir, "data")
	go func() {
		rc <- run([]string{"--emulate", "--config", conf, "--data", data, "--ledger", ledgerPath, "--pub", pub,
			"--maintenance", "tcp:" + addr}, stdin, &out, &errb)
	}()
	c := &flash.Client{Token: []byte("tech-token"), Attempts: 50, Backoff: 100 * time.Millisecond, Timeout: 5 * time.Second,
		Dial: func(ctx context.Context) (io.ReadWriteCloser, error) {
			var d net.Dialer
			return d.DialContext(ctx, "tcp", addr)
		}}
	renamed, err := config.Load(conf)
	if err != nil {
		t.Fatal(err)
	}
	renamed.RetailerName = "TABAC DU PORT"
	var b bytes.Buffer
	if err := renamed.Encode(&b); err != nil {
		t.Fatal(err)
	}
	if res, err := c.Send(context.Background(), flash.Config, bytes.NewReader(b.Bytes()), int64(b.Len())); err != nil {
		t.Fatalf("configuration: %+v %v\n%s", res, err, errb.String())
	}
	feed.Close()
	select {
	case code := <-rc:
		if code != 0 {
			t.Fatalf("exit %d\n%s", code, errb.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("posd --emulate did not end with its input")
	}
	j, err := journal.Open(filepath.Join(data, "terminal", "journal"), journal.Options{Terminal: "SHOP-7", ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	var changes []string
	if err := j.Latest(journal.KindConfigChange, func(r journal.Record) bool { changes = append(changes, r.Detail); return true }); err != nil {
		t.Fatal(err)
	}
	want := `terminal.retailer_name: "Tabac test" -> "TABAC DU PORT"`
	if len(changes) != 1 || !strings.Contains(changes[0], want) {
		t.Fatalf("config-change records %q, want one holding %q", changes, want)
	}
}
