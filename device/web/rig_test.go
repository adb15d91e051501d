package web

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"log/slog"
	"net"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/packterm/pos/device/emulated"
	"github.com/packterm/pos/internal/testblock"
	"github.com/packterm/pos/validate/block"
	"github.com/packterm/pos/validate/ledger"
)

const testToken = "correct horse battery staple"

func testTokenSHA() string {
	s := sha256.Sum256([]byte(testToken))
	return hex.EncodeToString(s[:])
}

// env is an emulated terminal on the test block with its page served on loopback.
type env struct {
	blk  *testblock.Block
	rig  *emulated.Rig
	logs *LogRing
	url  string
	srv  *Server
}

func startEnv(t testing.TB, adjust func(*Options)) *env {
	t.Helper()
	blk, err := testblock.Make(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	trust, err := ledger.LoadTrustStore(blk.Pub)
	if err != nil {
		t.Fatal(err)
	}
	l, err := ledger.OpenFile(blk.Ledger, trust)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	e := &env{blk: blk, logs: NewLogRing(50, slog.LevelInfo)}
	log := slog.New(e.logs.Tee(slog.DiscardHandler))
	e.rig, err = emulated.Start(context.Background(), emulated.Options{Dir: t.TempDir(), Ledgers: []*ledger.Ledger{l}, AllDelivered: true, PerTicket: 20_00, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.rig.Close() })
	select {
	case <-e.rig.Terminal.Ready():
	case <-time.After(10 * time.Second):
		t.Fatal("terminal not ready")
	}
	o := Options{Emulator: e.rig, PrintFile: blk.Print, Logger: log, Poll: 20 * time.Millisecond, TokenSHA256: testTokenSHA(),
		Parts: &Parts{TerminalID: "EMU-0001", Terminal: e.rig.Terminal, Journal: e.rig.Journal, Ledgers: e.rig.Ledgers, AllDelivered: true,
			Printer: e.rig.Driver, PrinterMode: "default", Board: e.rig.Board, Logs: e.logs}}
	if adjust != nil {
		adjust(&o)
	}
	if e.srv, err = New(o); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	hs := httptest.NewUnstartedServer(e.srv)
	hs.Config.BaseContext = func(net.Listener) context.Context { return ctx }
	hs.Start()
	t.Cleanup(func() { cancel(); hs.Close(); e.srv.Close() })
	e.url = hs.URL
	return e
}

// winner is a ticket of the test block that wins lot cents.
func (e *env) winner(t *testing.T, lot int64) block.Row {
	t.Helper()
	r, err := e.blk.Find(func(r block.Row) bool { return int64(r.Prize) == lot })
	if err != nil {
		t.Fatal(err)
	}
	return r
}
