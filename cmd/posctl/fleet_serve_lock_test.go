package main

import (
	"errors"
	"strings"
	"testing"

	"github.com/packterm/pos/device/fleet/server"
)

// TestFleetServeSecondRefused: posctl fleet serve on a data directory another server
// holds is refused at once, naming the directory (before, it opened the first one's
// JetStream store and failed 10 s later with "not ready").
func TestFleetServeSecondRefused(t *testing.T) {
	data := t.TempDir()
	l, err := server.LockData(data)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	out, err := runNet(t, "fleet", "serve", "--data", data, "--listen", "127.0.0.1:0", "--ledgers", t.TempDir(), "--pub", "none.pub")
	if !errors.Is(err, server.ErrDataInUse) || !strings.Contains(err.Error(), data) {
		t.Fatalf("second serve: %v, want ErrDataInUse naming %s\n%s", err, data, out)
	}
}
