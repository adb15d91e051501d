package flash_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/packterm/pos/firmware/bundle"
	"github.com/packterm/pos/firmware/bundle/bundletest"
	"github.com/packterm/pos/firmware/flash"
	"github.com/packterm/pos/firmware/slot"
)

var (
	key   = bundletest.NewKey()
	token = []byte("technician-secret-0042")
)

// terminal is a device side: a slot store with 1.0.0 good, a flash server on loopback TCP.
type terminal struct {
	dir   string
	store *slot.Store
	srv   *flash.Server
	addr  string
}

func newTerminal(t testing.TB) *terminal {
	t.Helper()
	dir := t.TempDir()
	store, err := slot.Open(filepath.Join(dir, "slots"), slot.Options{Target: &bundletest.DefaultTarget, Trust: key.Trust()})
	if err != nil {
		t.Fatal(err)
	}
	r, _ := bundle.NewReader(bytes.NewReader(key.Build(bundletest.Spec{Version: "1.0.0"})), key.Trust())
	if _, err := store.Install(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	store.Boot()
	store.MarkGood()
	srv := &flash.Server{
		TokenHash: sha256.Sum256(token), SpoolDir: filepath.Join(dir, "spool"),
		Firmware: store, Trust: key.Trust(), AuthDelay: -1, SyncEvery: 8 << 10, Clock: clockwork.NewFakeClock(),
		Items: map[flash.Kind]flash.Item{flash.Config: {
			Path: filepath.Join(dir, "posd.toml"),
			Verify: func(_ context.Context, path string) error {
				b, err := os.ReadFile(path)
				if err == nil && !bytes.HasPrefix(b, []byte("[terminal]")) {
					err = errors.New("not a terminal config")
				}
				return err
			},
		}},
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { srv.ServeListener(ctx, ln); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	return &terminal{dir: dir, store: store, srv: srv, addr: ln.Addr().String()}
}

// cutConn closes itself once it has written more than limit bytes: a cable pulled.
type cutConn struct {
	net.Conn
	left *atomic.Int64
}

func (c cutConn) Write(p []byte) (int, error) {
	if c.left.Add(-int64(len(p))) < 0 {
		c.Conn.Close()
		return 0, errors.New("cable pulled")
	}
	return c.Conn.Write(p)
}

// client dials the terminal; the first connection is cut after cutAfter bytes (0: never).
func (tm *terminal) client(tok []byte, cutAfter int64) *flash.Client {
	var dials atomic.Int32
	return &flash.Client{
		Token: tok, Backoff: -1, Attempts: 5, Clock: clockwork.NewFakeClock(),
		Dial: func(ctx context.Context) (io.ReadWriteCloser, error) {
			c, err := net.Dial("tcp", tm.addr)
			if err != nil || dials.Add(1) > 1 || cutAfter == 0 {
				return c, err
			}
			left := &atomic.Int64{}
			left.Store(cutAfter)
			return cutConn{c, left}, nil
		},
	}
}

func send(t *testing.T, c *flash.Client, kind flash.Kind, b []byte) (flash.Result, error) {
	t.Helper()
	return c.Send(context.Background(), kind, bytes.NewReader(b), int64(len(b)))
}

func bigBundle(version string, k bundletest.Key) []byte {
	posd := make([]byte, 300<<10)
	rand.Read(posd)
	return k.Build(bundletest.Spec{Version: version, Posd: posd})
}

func TestFlashCablePulledResumes(t *testing.T) {
	tm := newTerminal(t)
	b := bigBundle("2.0.0", key)
	res, err := send(t, tm.client(token, 150<<10), flash.Firmware, b)
	if err != nil {
		t.Fatal(err)
	}
	if res.Attempts != 2 || len(res.Resumed) != 1 || res.Resumed[0] < 100<<10 {
		t.Fatalf("want one resume past 100 KiB: %+v", res)
	}
	if res.Sent > int64(len(b))+(50<<10) {
		t.Fatalf("sent %d bytes for a %d-byte bundle: the resume restarted too far back", res.Sent, len(b))
	}
	if !strings.Contains(res.Message, "firmware 2.0.0 installed in slot b") {
		t.Fatalf("message %q", res.Message)
	}
	c, err := tm.store.Boot()
	if err != nil || c.Version.String() != "2.0.0" || !c.Trial {
		t.Fatalf("boot after flash: %+v %v", c, err)
	}
	if ents, _ := os.ReadDir(filepath.Join(tm.dir, "spool")); len(ents) != 0 {
		t.Fatalf("spool not cleaned: %v", ents)
	}
}

// The link breaks after the last byte, before the terminal's verdict arrives: the host
// reconnects and is told the bundle is installed, without sending it again.
func TestFlashVerdictLost(t *testing.T) {
	tm := newTerminal(t)
	b := bigBundle("2.0.0", key)
	if _, err := send(t, tm.client(token, 0), flash.Firmware, b); err != nil {
		t.Fatal(err)
	}
	res, err := send(t, tm.client(token, 0), flash.Firmware, b)
	if err != nil || res.Sent != 0 || !strings.Contains(res.Message, "2.0.0 installed in slot b") || !strings.Contains(res.Message, "already installed") {
		t.Fatalf("second send: %+v %v", res, err)
	}
	if st, _ := tm.store.State(); st.Active != slot.B || st.Boots != 0 {
		t.Fatalf("state %+v", st)
	}
}

func TestFlashRefusals(t *testing.T) {
	tm := newTerminal(t)
	other := bundletest.NewKey()
	cases := []struct {
		name  string
		tok   []byte
		b     []byte
		want  error
		words string
	}{
		{"wrong token", []byte("guess"), bigBundle("2.0.0", key), flash.ErrAuth, "token refused"},
		{"wrong key", nil, bigBundle("2.0.0", other), flash.ErrRefused, "untrusted key"},
		{"unsigned", nil, bigBundle("2.0.0", bundletest.Key{}), flash.ErrRefused, "unsigned"},
		{"older version", nil, bigBundle("0.9.0", key), flash.ErrRefused, "anti-rollback"},
	}
	for _, c := range cases {
		tok := c.tok
		if tok == nil {
			tok = token
		}
		res, err := send(t, tm.client(tok, 0), flash.Firmware, c.b)
		if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.words) {
			t.Errorf("%s: err %v, want %v (%q)", c.name, err, c.want, c.words)
		}
		// Refused from the header: the rest of the bundle is never sent.
		if res.Sent > 2*flash.MaxNetChunk {
			t.Errorf("%s: %d bytes sent before the refusal", c.name, res.Sent)
		}
	}
	if st, _ := tm.store.State(); st.Active != slot.A || st.Trial {
		t.Fatalf("state changed by refused flashes: %+v", st)
	}
}

func TestProvisionVerifiesBeforeReplacing(t *testing.T) {
	tm := newTerminal(t)
	path := filepath.Join(tm.dir, "posd.toml")
	res, err := send(t, tm.client(token, 0), flash.Config, []byte("[terminal]\nid = \"T9\"\n"))
	if err != nil || !strings.Contains(res.Message, "config installed") {
		t.Fatalf("provision: %+v %v", res, err)
	}
	if _, err := send(t, tm.client(token, 0), flash.Config, []byte("garbage")); !errors.Is(err, flash.ErrRefused) {
		t.Fatalf("bad config: %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "[terminal]\nid = \"T9\"\n" {
		t.Fatalf("installed config replaced by a refused one: %q", b)
	}
	if _, err := send(t, tm.client(token, 0), flash.Ledger, []byte("x")); !errors.Is(err, flash.ErrRefused) {
		t.Fatalf("kind not offered: %v", err)
	}
}

// LastActivity moves with every frame received, on the server's clock.
func TestLastActivity(t *testing.T) {
	tm := newTerminal(t)
	if !tm.srv.LastActivity().IsZero() {
		t.Fatal("activity before any frame")
	}
	clock := tm.srv.Clock.(*clockwork.FakeClock)
	clock.Advance(time.Hour)
	if _, err := send(t, tm.client(token, 0), flash.Config, []byte("[terminal]\n")); err != nil {
		t.Fatal(err)
	}
	if got := tm.srv.LastActivity(); !got.Equal(clock.Now()) {
		t.Fatalf("last activity %v, want %v", got, clock.Now())
	}
}

// TestTokenGuessesLockOut: after 5 wrong tokens the link checks none, the right one
// included, for a minute; a minute later the right token opens a session again.
func TestTokenGuessesLockOut(t *testing.T) {
	tm := newTerminal(t)
	clock := tm.srv.Clock.(*clockwork.FakeClock)
	cfg := []byte("[terminal]\nid = \"T9\"\n")
	for i := range 5 {
		if _, err := send(t, tm.client([]byte(fmt.Sprintf("guess-%d", i)), 0), flash.Config, cfg); !errors.Is(err, flash.ErrAuth) {
			t.Fatalf("guess %d: %v", i, err)
		}
	}
	_, err := send(t, tm.client(token, 0), flash.Config, cfg)
	if !errors.Is(err, flash.ErrAuth) || !strings.Contains(err.Error(), "too many wrong tokens") {
		t.Fatalf("the right token during the lockout: %v", err)
	}
	clock.Advance(61 * time.Second)
	if res, err := send(t, tm.client(token, 0), flash.Config, cfg); err != nil || !strings.Contains(res.Message, "config installed") {
		t.Fatalf("after the lockout: %+v %v", res, err)
	}
}
