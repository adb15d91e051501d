package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/packterm/pos/device/config"
	"github.com/packterm/pos/drivers/serialport/serialemul"
	"github.com/packterm/pos/firmware/bundle"
	"github.com/packterm/pos/firmware/bundle/bundletest"
	"github.com/packterm/pos/firmware/flash"
	"github.com/packterm/pos/firmware/slot"
	"github.com/packterm/pos/validate/ledger"
)

// runLink runs posctl with a deadline (runDevices) and gives the commands it ran their
// background context back: cobra keeps a subcommand's context between Execute calls, and
// the synctest-based tests that follow must not inherit a cancelled one.
func runLink(t *testing.T, args ...string) (string, error) {
	t.Helper()
	resetFlags(root)
	out, err := runDevices(t, args...)
	root.SetContext(context.Background())
	if sub, _, ferr := root.Find(args); ferr == nil {
		sub.SetContext(context.Background())
	}
	return out, err
}

// emuTerminal is an emulated terminal's storage with 1.0.0 installed and good, and the
// flash server posd would run on it.
type emuTerminal struct {
	dir   string
	opDir string // the operator's keys: operator.pub is what the terminal was flashed with
	key   bundletest.Key
	store *slot.Store
	srv   *flash.Server
}

func newEmuTerminal(t *testing.T) *emuTerminal {
	t.Helper()
	dir := t.TempDir()
	key := bundletest.NewKey()
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
	// The image the terminal was flashed with: the operator's public key and a
	// configuration naming it.
	opDir := t.TempDir()
	if _, err := ledger.GenerateKey(opDir); err != nil {
		t.Fatal(err)
	}
	anchor := filepath.Join(opDir, ledger.OperatorPublicFile)
	c := config.Emulated()
	c.Keys.Operator = []string{anchor}
	var cfg bytes.Buffer
	c.Encode(&cfg)
	if err := os.WriteFile(filepath.Join(dir, "posd.toml"), cfg.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := &flash.Server{TokenHash: sha256.Sum256([]byte("tech-token")), SpoolDir: filepath.Join(dir, "spool"),
		Firmware: store, Trust: key.Trust(), Items: emulatedItems(dir, 1, []string{anchor}), AuthDelay: -1, SyncEvery: 4096}
	return &emuTerminal{dir: dir, opDir: opDir, key: key, store: store, srv: srv}
}

func (e *emuTerminal) listen(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { e.srv.ServeListener(ctx, ln); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	return "tcp:" + ln.Addr().String()
}

func writeTemp(t *testing.T, name string, b []byte, mode os.FileMode) string {
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, b, mode); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestFlashAndProvisionOverTCP(t *testing.T) {
	e := newEmuTerminal(t)
	to := e.listen(t)
	tok := writeTemp(t, "token", []byte("tech-token\n"), 0o600)
	b := writeTemp(t, "fw.bundle", e.key.Build(bundletest.Spec{Version: "2.0.0"}), 0o644)
	out, err := runLink(t, "flash", b, "--to", to, "--token-file", tok)
	if err != nil || !strings.Contains(out, "ok: firmware 2.0.0 installed in slot b") {
		t.Fatalf("flash: %v\n%s", err, out)
	}
	old := writeTemp(t, "old.bundle", e.key.Build(bundletest.Spec{Version: "0.5.0"}), 0o644)
	e.store.Boot()
	e.store.MarkGood()
	if out, err := runLink(t, "flash", old, "--to", to, "--token-file", tok); err == nil || !strings.Contains(err.Error(), "anti-rollback") {
		t.Fatalf("older bundle: %v\n%s", err, out)
	}
	bad := writeTemp(t, "badtoken", []byte("guess"), 0o600)
	if _, err := runLink(t, "flash", b, "--to", to, "--token-file", bad); err == nil || !strings.Contains(err.Error(), "token refused") {
		t.Fatalf("wrong token: %v", err)
	}

	// Provisioning: a key statement signed by the operator key the terminal was flashed
	// with (adding a second key), a config keeping the trust settings.
	kdir := e.opDir
	newKey := t.TempDir()
	if _, err := runLink(t, "keys", "gen", "--out", newKey); err != nil {
		t.Fatal(err)
	}
	stmt := filepath.Join(t.TempDir(), "keys.stmt")
	if out, err := runLink(t, "keys", "rotate", "--key", filepath.Join(kdir, "operator.key"), "--add", filepath.Join(newKey, "operator.pub"), "--out", stmt); err != nil {
		t.Fatalf("keys rotate: %v\n%s", err, out)
	}
	cfgPath := writeTemp(t, "posd.toml", mustReadFile(t, filepath.Join(e.dir, "posd.toml")), 0o644)
	out, err = runLink(t, "provision", "--to", to, "--token-file", tok, "--keys", stmt, "--config", cfgPath)
	if err != nil || strings.Count(out, "ok: ") != 2 {
		t.Fatalf("provision: %v\n%s", err, out)
	}
	if st, err := ledger.LoadKeyStatement(filepath.Join(e.dir, ledger.KeyStatementFile)); err != nil || len(st.Keys()) != 2 {
		t.Fatalf("installed statement: %v", err)
	}
	// A signed ledger and status list verify against the operator key just installed.
	def := writeTemp(t, "tiny.json", []byte(tinyDefinition), 0o600)
	gen := t.TempDir()
	if out, err := runLink(t, "ledger", "gen", "--key", filepath.Join(kdir, "operator.key"), "--block", "7",
		"--definition", def, "--out", gen); err != nil {
		t.Fatalf("ledger gen: %v\n%s", err, out)
	}
	status := filepath.Join(gen, "status.list")
	if out, err := runLink(t, "status", "gen", "--key", filepath.Join(kdir, "operator.key"), "--retailer", "1", "--version", "1",
		"--out", status, "--delivered", "7:1-8"); err != nil {
		t.Fatalf("status gen: %v\n%s", err, out)
	}
	out, err = runLink(t, "provision", "--to", to, "--token-file", tok, "--ledger", filepath.Join(gen, "block-7.ledger"), "--status", status)
	if err != nil || !strings.Contains(out, "ok: ledger installed") || !strings.Contains(out, "ok: status installed") {
		t.Fatalf("provision ledger and status: %v\n%s", err, out)
	}
	for _, f := range []string{"pack-status.list", "block-7.ledger"} {
		if _, err := os.Stat(filepath.Join(e.dir, f)); err != nil {
			t.Fatal(err)
		}
	}
	junk := writeTemp(t, "block.ledger", []byte("not a ledger"), 0o644)
	if _, err := runLink(t, "provision", "--to", to, "--token-file", tok, "--ledger", junk); err == nil {
		t.Fatal("a junk ledger was installed")
	}
	if b, _ := os.ReadFile(filepath.Join(e.dir, "block.ledger")); string(b) == "not a ledger" {
		t.Fatal("junk ledger replaced the installed one")
	}
	// A bare firmware key file is refused as keys (and the reverse in fw_test.go).
	fwpub := writeTemp(t, "firmware.pub", []byte("pos-firmware-ed25519-public "+strings.Repeat("A", 43)+"=\n"), 0o644)
	if _, err := runLink(t, "provision", "--to", to, "--token-file", tok, "--keys", fwpub); err == nil {
		t.Fatal("a firmware key installed as operator key")
	}
}

// ptyDevice is the terminal's end of an emulated serial cable (serialemul): what the host
// writes arrives through a pipe the flash server reads.
type ptyDevice struct {
	d        *serialemul.Device
	pr       *io.PipeReader
	pw       *io.PipeWriter
	received atomic.Int64
}

func (p *ptyDevice) Read(b []byte) (int, error)  { return p.pr.Read(b) }
func (p *ptyDevice) Write(b []byte) (int, error) { return p.d.Write(b) }

func TestFlashOverSerialCablePulled(t *testing.T) {
	e := newEmuTerminal(t)
	dev := &ptyDevice{}
	dev.pr, dev.pw = io.Pipe()
	var once sync.Once
	pulled := make(chan struct{})
	link := filepath.Join(t.TempDir(), "ttyMAINT")
	d, err := serialemul.New(link, func(b []byte) {
		dev.pw.Write(b)
		if dev.received.Add(int64(len(b))) > 120<<10 {
			once.Do(func() { close(pulled) })
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	dev.d = d
	defer d.Close()
	// The technician pulls the cable once 120 KiB have gone, and plugs it back.
	go func() {
		<-pulled
		d.Unplug()
		time.Sleep(300 * time.Millisecond)
		d.Replug()
	}()
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan struct{})
	go func() { e.srv.Serve(ctx, dev); close(served) }()
	defer func() { cancel(); dev.pw.Close(); <-served }()

	posd := make([]byte, 256<<10)
	for i := range posd {
		posd[i] = byte(i * 7)
	}
	b := writeTemp(t, "fw.bundle", e.key.Build(bundletest.Spec{Version: "2.0.0", Posd: posd}), 0o644)
	tok := writeTemp(t, "token", []byte("tech-token"), 0o600)
	out, err := runLink(t, "flash", b, "--to", "serial:"+link, "--token-file", tok, "--timeout", "3s")
	if err != nil {
		t.Fatalf("flash: %v\n%s", err, out)
	}
	if !strings.Contains(out, "ok: firmware 2.0.0 installed in slot b") || !strings.Contains(out, "resumed at") {
		t.Fatalf("want an install after a resume:\n%s", out)
	}
	c, err := e.store.Boot()
	if err != nil || c.Version.String() != "2.0.0" {
		t.Fatalf("boot: %+v %v", c, err)
	}
}

func mustReadFile(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
