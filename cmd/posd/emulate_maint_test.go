package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/packterm/pos/firmware/bundle/bundletest"
	"github.com/packterm/pos/firmware/flash"
	"github.com/packterm/pos/validate/ledger"
)

// posd --emulate --maintenance: the emulated terminal answers posctl's flash client as a
// board would: the technician token, provisioned files verified before they are
// installed (into DATA/maint), firmware refused without [keys] firmware.
func TestEmulateMaintenanceLink(t *testing.T) {
	dir := t.TempDir()
	_, ledgerPath, pub := crashBlock(t, filepath.Join(dir, "block"))
	key, err := ledger.LoadPrivateKey(filepath.Join(dir, "block", "keys", ledger.OperatorPrivateFile))
	if err != nil {
		t.Fatal(err)
	}
	list := filepath.Join(dir, "packs.list")
	if err := ledger.WriteStatus(list, &ledger.StatusList{Retailer: 1, Version: 2, Ranges: []ledger.PackRange{
		{Block: 3, First: 0, Count: 2, State: ledger.PackDelivered}}}, key); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	sum := sha256.Sum256([]byte("tech-token"))
	stdin, feed := io.Pipe()
	var out, errb bytes.Buffer
	rc := make(chan int, 1)
	data := filepath.Join(dir, "data")
	go func() {
		rc <- run([]string{"--emulate", "--data", data, "--ledger", ledgerPath, "--pub", pub,
			"--token-sha256", hex.EncodeToString(sum[:]), "--maintenance", "tcp:" + addr}, stdin, &out, &errb)
	}()
	client := func(token string) *flash.Client {
		return &flash.Client{Token: []byte(token), Attempts: 50, Backoff: 100 * time.Millisecond, Timeout: 5 * time.Second,
			Dial: func(ctx context.Context) (io.ReadWriteCloser, error) {
				var d net.Dialer
				return d.DialContext(ctx, "tcp", addr)
			}}
	}
	send := func(c *flash.Client, kind flash.Kind, b []byte) (flash.Result, error) {
		return c.Send(context.Background(), kind, bytes.NewReader(b), int64(len(b)))
	}
	b, _ := os.ReadFile(list)
	if res, err := send(client("tech-token"), flash.Status, b); err != nil || !strings.Contains(res.Message, "status installed: version 2") {
		t.Fatalf("status list: %+v %v", res, err)
	}
	if _, err := send(client("nope"), flash.Status, b); !errors.Is(err, flash.ErrAuth) {
		t.Fatalf("wrong token: %v", err)
	}
	if _, err := send(client("tech-token"), flash.Firmware, bundletest.NewKey().Build(bundletest.Spec{})); !errors.Is(err, flash.ErrRefused) {
		t.Fatalf("firmware without [keys] firmware: %v", err)
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
	if got, _ := os.ReadFile(filepath.Join(data, "maint", ledger.StatusFileName)); !bytes.Equal(got, b) {
		t.Fatal("the provisioned list is not in DATA/maint")
	}
	if !strings.Contains(errb.String(), "maintenance link on "+addr) {
		t.Errorf("stderr does not say where the link listens:\n%s", errb.String())
	}
}
