package daemon

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/packterm/pos/device/config"
	"github.com/packterm/pos/drivers/serialport/serialemul"
	"github.com/packterm/pos/firmware/bundle"
	"github.com/packterm/pos/firmware/bundle/bundletest"
	"github.com/packterm/pos/firmware/flash"
	"github.com/packterm/pos/firmware/fwkey"
	"github.com/packterm/pos/firmware/slot"
	"github.com/packterm/pos/validate/block"
	"github.com/packterm/pos/validate/journal"
	"github.com/packterm/pos/validate/ledger"
)

// tcpClient is posctl's flash client on the daemon's TCP maintenance link.
func tcpClient(addr string, token string) *flash.Client {
	return &flash.Client{Token: []byte(token), Attempts: 3, Backoff: -1, Timeout: 5 * time.Second,
		Dial: func(ctx context.Context) (io.ReadWriteCloser, error) {
			var d net.Dialer
			return d.DialContext(ctx, "tcp", addr)
		}}
}

// freeAddr is a loopback address with a port free now (the configuration refuses port 0).
func freeAddr(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

func sendFile(t *testing.T, c *flash.Client, kind flash.Kind, path string) (flash.Result, error) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return c.Send(context.Background(), kind, bytes.NewReader(b), int64(len(b)))
}

func sendBytes(c *flash.Client, kind flash.Kind, b []byte) (flash.Result, error) {
	return c.Send(context.Background(), kind, bytes.NewReader(b), int64(len(b)))
}

// firmwareSlots is a slot root with version installed in slot a and committed, as a
// terminal that has run it for a while; it returns the root and the slot posboot booted.
func firmwareSlots(t *testing.T, k bundletest.Key, version string) (*slot.Store, *slot.Booted) {
	t.Helper()
	root := filepath.Join(t.TempDir(), "slots")
	target := FirmwareTarget("rpi")
	store, err := slot.Open(root, slot.Options{Target: &target, Trust: k.Trust()})
	if err != nil {
		t.Fatal(err)
	}
	r, err := bundle.NewReader(bytes.NewReader(k.Build(bundletest.Spec{Version: version, Target: &target})), k.Trust())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.Install(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	return store, bootAsPosboot(t, store, root)
}

// committedSlots is firmwareSlots with the installed slot marked good: the terminal runs
// a committed firmware.
func committedSlots(t *testing.T, k bundletest.Key, version string) (*slot.Store, *slot.Booted) {
	t.Helper()
	store, booted := firmwareSlots(t, k, version)
	if err := store.MarkGood(); err != nil {
		t.Fatal(err)
	}
	booted.Trial = false
	return store, booted
}

// bootAsPosboot does what posboot does before it execs posd: Boot (count the start, maybe
// roll back), then the slot's environment, read back by slot.BootedFromEnv as posd does.
func bootAsPosboot(t *testing.T, store *slot.Store, root string) *slot.Booted {
	t.Helper()
	c, err := store.Boot()
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range c.Env(root) {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	b, ok := slot.BootedFromEnv()
	if !ok {
		t.Fatal("posboot's environment not understood")
	}
	return &b
}

func writeFirmwarePub(t *testing.T, k bundletest.Key) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "firmware.pub")
	if err := os.WriteFile(p, fwkey.MarshalPublic(k.Pub, "test"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// A technician provisions a ledger and a pack status list to a running daemon over its TCP
// maintenance link with posctl's client; a wrong token and a firmware bundle signed with
// an untrusted key are refused and change nothing; once the link is quiet and the
// terminal at rest the daemon stops to be restarted, and the new list is in force for the
// next scan.
func TestProvisionOverTheLink(t *testing.T) {
	tb := newTestBlock(t, 6)
	b := newBoard(t, tb)
	fw := bundletest.NewKey()
	store, booted := committedSlots(t, fw, "1.0.0")
	b.cfg.Maintenance = "tcp:" + freeAddr(t)
	b.cfg.Keys.Firmware = []string{writeFirmwarePub(t, fw)}
	o := Options{Booted: booted, RestartQuiet: 300 * time.Millisecond}
	d := b.start(t, o)
	if d.r.Maintenance == "" {
		t.Fatal("maintenance link not listening")
	}
	d.scan(b, packCode(1), "PAS DE REGISTRE")
	stateBefore, _ := store.State()

	if _, err := sendFile(t, tcpClient(d.r.Maintenance, "wrong-token"), flash.Status, tb.statusList(t, 1, 1)); !errors.Is(err, flash.ErrAuth) {
		t.Fatalf("wrong token: %v", err)
	}
	target := FirmwareTarget("rpi")
	rogue := bundletest.NewKey().Build(bundletest.Spec{Version: "9.0.0", Target: &target})
	if _, err := sendBytes(tcpClient(d.r.Maintenance, testToken), flash.Firmware, rogue); !errors.Is(err, flash.ErrRefused) {
		t.Fatalf("bundle of an untrusted key: %v", err)
	}
	if st, _ := store.State(); st != stateBefore {
		t.Fatalf("slot state changed by refused transfers: %+v, was %+v", st, stateBefore)
	}
	if names, _ := filepath.Glob(filepath.Join(b.cfg.DataDir, "*.l*")); len(names) != 0 {
		t.Fatalf("refused transfers left %v", names)
	}
	if k := kinds(records(t, b.cfg.DataDir)); k[journal.KindStatusInstall]+k[journal.KindLedgerInstall]+k[journal.KindConfigChange] != 0 {
		t.Fatalf("refused transfers journalled: %v", k)
	}

	c := tcpClient(d.r.Maintenance, testToken)
	if res, err := sendFile(t, c, flash.Ledger, tb.ledger); err != nil || !strings.Contains(res.Message, "ledger installed") {
		t.Fatalf("ledger: %+v %v", res, err)
	}
	if res, err := sendFile(t, c, flash.Status, tb.statusList(t, 1, 1)); err != nil || !strings.Contains(res.Message, "status installed") {
		t.Fatalf("status list: %+v %v", res, err)
	}
	err := d.ended(10 * time.Second)
	var re *RestartError
	if !errors.As(err, &re) || !errors.Is(err, ErrRestart) || len(re.Why) != 2 {
		t.Fatalf("after provisioning, Run returned %v; want a restart for both items", err)
	}
	k := kinds(records(t, b.cfg.DataDir))
	if k[journal.KindLedgerInstall] != 1 || k[journal.KindStatusInstall] != 1 {
		t.Fatalf("installs journalled: %v", k)
	}

	// systemd starts posd again: the new data is in force for the next scan.
	d = b.start(t, o)
	d.scan(b, packCode(1), "PRIX 10,00 €")
	d.press(b, "VENDU")
	_, void := tb.winnerWhere(t, func(tk block.Ticket) bool { return tk.ID.Pack == 4 })
	d.scan(b, void, "PAQUET ANNULÉ")
	if err := d.stop(); err != nil {
		t.Fatal(err)
	}
}

// A firmware bundle signed with the trusted firmware key, flashed over the link, switches
// the slots; the daemon stops to be restarted into it; booted on trial, the new firmware
// is marked good once healthy.
func TestFirmwareOverTheLink(t *testing.T) {
	tb := newTestBlock(t, 7)
	b := newBoard(t, tb)
	b.installLedger(t, tb)
	fw := bundletest.NewKey()
	store, booted := committedSlots(t, fw, "1.0.0")
	b.cfg.Maintenance = "tcp:" + freeAddr(t)
	b.cfg.Keys.Firmware = []string{writeFirmwarePub(t, fw)}
	o := Options{Booted: booted, RestartQuiet: 200 * time.Millisecond}
	d := b.start(t, o)
	target := FirmwareTarget("rpi")
	res, err := sendBytes(tcpClient(d.r.Maintenance, testToken), flash.Firmware, fw.Build(bundletest.Spec{Version: "2.0.0", Target: &target}))
	if err != nil || !strings.Contains(res.Message, "firmware 2.0.0 installed in slot b") {
		t.Fatalf("flash: %+v %v", res, err)
	}
	if err := d.ended(10 * time.Second); !errors.Is(err, ErrRestart) {
		t.Fatalf("after a firmware install Run returned %v, want a restart", err)
	}
	st, err := store.State()
	if err != nil || st.Active != slot.B || !st.Trial || st.Previous != slot.A {
		t.Fatalf("slot state after the install: %+v %v", st, err)
	}
	if k := kinds(records(t, b.cfg.DataDir)); k[journal.KindConfigChange] != 1 {
		t.Fatalf("firmware install journalled: %v", k)
	}

	booted = bootAsPosboot(t, store, filepath.Dir(store.Dir(slot.A)))
	if booted.Slot != slot.B || !booted.Trial || booted.Version.String() != "2.0.0" {
		t.Fatalf("posboot booted %+v", booted)
	}
	o.Booted = booted
	d = b.start(t, o)
	<-d.r.Health.Healthy()
	wait(t, "the trial slot marked good", func() bool {
		st, err := store.State()
		return err == nil && !st.Trial && st.Active == slot.B
	})
	if err := d.stop(); err != nil {
		t.Fatal(err)
	}
}

// Fail closed: without [keys] firmware the link takes no firmware; without a technician
// token it does not listen at all.
func TestMaintenanceFailsClosed(t *testing.T) {
	tb := newTestBlock(t, 8)
	b := newBoard(t, tb)
	fw := bundletest.NewKey()
	store, booted := committedSlots(t, fw, "1.0.0")
	b.cfg.Maintenance = "tcp:" + freeAddr(t)
	d := b.start(t, Options{Booted: booted})
	target := FirmwareTarget("rpi")
	_, err := sendBytes(tcpClient(d.r.Maintenance, testToken), flash.Firmware, fw.Build(bundletest.Spec{Version: "2.0.0", Target: &target}))
	if !errors.Is(err, flash.ErrRefused) || !strings.Contains(err.Error(), "no firmware") {
		t.Fatalf("firmware without [keys] firmware: %v", err)
	}
	if st, _ := store.State(); st.Active != slot.A {
		t.Fatalf("slot switched: %+v", st)
	}
	if err := d.stop(); err != nil {
		t.Fatal(err)
	}
	b.cfg.Technician.TokenSHA256 = ""
	d = b.start(t, Options{Booted: booted})
	if d.r.Maintenance != "" {
		t.Fatalf("listening on %s without a technician token", d.r.Maintenance)
	}
	if err := d.stop(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(b.cfg.DataDir, ledger.StatusFileName)); err == nil {
		t.Fatal("a status list appeared")
	}
}

// ptyCable is the technician's end of an emulated serial cable to the terminal's
// maintenance port (a pty: the daemon opens its link path as it would /dev/ttyGS0).
type ptyCable struct {
	d  *serialemul.Device
	mu sync.Mutex
	pw *io.PipeWriter
}

func (c *ptyCable) received(b []byte) {
	c.mu.Lock()
	pw := c.pw
	c.mu.Unlock()
	if pw != nil {
		pw.Write(b)
	}
}

type ptyEnd struct {
	c  *ptyCable
	pr *io.PipeReader
}

func (e ptyEnd) Read(b []byte) (int, error)  { return e.pr.Read(b) }
func (e ptyEnd) Write(b []byte) (int, error) { return e.c.d.Write(b) }
func (e ptyEnd) Close() error                { return e.pr.Close() }

func (c *ptyCable) dial(context.Context) (io.ReadWriteCloser, error) {
	pr, pw := io.Pipe()
	c.mu.Lock()
	if c.pw != nil {
		c.pw.Close()
	}
	c.pw = pw
	c.mu.Unlock()
	return ptyEnd{c, pr}, nil
}

// The same link on the maintenance serial port: a status list provisioned over a pty.
func TestProvisionOverSerial(t *testing.T) {
	tb := newTestBlock(t, 10)
	b := newBoard(t, tb)
	b.installLedger(t, tb)
	cable := &ptyCable{}
	dev, err := serialemul.New(filepath.Join(b.dir, "ttyGS0"), cable.received)
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	cable.d = dev
	b.cfg.Maintenance = "serial:" + dev.Path()
	d := b.start(t, Options{RestartQuiet: 200 * time.Millisecond})
	if d.r.Maintenance != dev.Path() {
		t.Fatalf("maintenance link on %q", d.r.Maintenance)
	}
	d.scan(b, packCode(2), "PAQUET NON LIVRÉ")
	// A Hello sent while the daemon is still opening its port is lost: a short reply
	// timeout makes the client try again soon.
	c := &flash.Client{Token: []byte(testToken), Dial: cable.dial, Attempts: 30, Backoff: -1, Timeout: 300 * time.Millisecond}
	if res, err := sendFile(t, c, flash.Status, tb.statusList(t, 1, 3)); err != nil || !strings.Contains(res.Message, "status installed: version 3") {
		t.Fatalf("status list over serial: %+v %v", res, err)
	}
	if err := d.ended(10 * time.Second); !errors.Is(err, ErrRestart) {
		t.Fatalf("Run returned %v, want a restart", err)
	}
	d = b.start(t, Options{})
	d.scan(b, packCode(2), "PRIX 10,00 €")
	if err := d.stop(); err != nil {
		t.Fatal(err)
	}
}

// TestDamagedDataKeepsTheLink: a damaged ledger on the terminal fails closed without going
// dark: posd starts, says so, sells and pays nothing (not even from the good status list
// beside it) and is not healthy; its maintenance link takes a good ledger, and after the
// restart the terminal sells again.
func TestDamagedDataKeepsTheLink(t *testing.T) {
	tb := newTestBlock(t, 6)
	b := newBoard(t, tb)
	b.installLedger(t, tb)
	b.installStatus(t, tb)
	installed, _ := filepath.Glob(filepath.Join(b.cfg.DataDir, "block-*.ledger"))
	if len(installed) != 1 {
		t.Fatalf("installed %v", installed)
	}
	raw, err := os.ReadFile(installed[0])
	if err != nil {
		t.Fatal(err)
	}
	raw[len(raw)-1] ^= 0x40 // one bit of the last entries: the hash tree no longer matches
	if err := os.WriteFile(installed[0], raw, 0o644); err != nil {
		t.Fatal(err)
	}
	b.cfg.Maintenance = "tcp:" + freeAddr(t)
	o := Options{RestartQuiet: 300 * time.Millisecond}
	d := b.start(t, o)
	d.expect("DONNÉES REFUSÉES")
	if d.r.Data.Refused == nil || d.r.Data.Ledgers.Len() != 0 || d.r.Data.Status != nil {
		t.Fatalf("data in use despite the damaged ledger: %+v", d.r.Data)
	}
	if !errors.Is(d.r.Data.Refused, ledger.ErrHash) {
		t.Errorf("refused for %v, want the hash tree", d.r.Data.Refused)
	}
	select {
	case <-d.r.Health.Healthy():
		t.Error("healthy with its data refused")
	case <-time.After(300 * time.Millisecond):
	}
	d.scan(b, packCode(1), "PAS DE REGISTRE")
	_, five := tb.winner(t, func(lot int64) bool { return lot == 5_00 })
	d.scan(b, five, "PAS DE REGISTRE")
	d.press(b, "DONNÉES REFUSÉES") // back at rest, it still says so

	if res, err := sendFile(t, tcpClient(d.r.Maintenance, testToken), flash.Ledger, tb.ledger); err != nil || !strings.Contains(res.Message, "ledger installed") {
		t.Fatalf("ledger over the link: %+v %v", res, err)
	}
	if err := d.ended(10 * time.Second); !errors.Is(err, ErrRestart) {
		t.Fatalf("after the install, Run returned %v; want a restart", err)
	}
	d = b.start(t, o)
	if d.r.Data.Refused != nil {
		t.Fatalf("still refused: %v", d.r.Data.Refused)
	}
	d.scan(b, packCode(1), "PRIX 10,00 €")
	d.press(b, "VENDU")
}

// Issue 47: a technician provisions a configuration over the link. One that raises the
// limit per day is refused, naming it, and changes and journals nothing; one that changes
// the retailer's name installs and is journalled with the old and new values (before: only
// "config installed (N bytes)").
func TestConfigOverTheLinkJournalled(t *testing.T) {
	tb := newTestBlock(t, 11)
	b := newBoard(t, tb)
	b.cfg.Maintenance = "tcp:" + freeAddr(t)
	path := filepath.Join(b.dir, "posd.toml")
	encode := func(c config.Config) []byte {
		var buf bytes.Buffer
		if err := c.Encode(&buf); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	if err := os.WriteFile(path, encode(b.cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	d := b.start(t, Options{ConfigPath: path, RestartQuiet: 200 * time.Millisecond})
	c := tcpClient(d.r.Maintenance, testToken)
	raised := b.cfg
	raised.Limits.PerDay = 1_000_000_00
	if _, err := sendBytes(c, flash.Config, encode(raised)); !errors.Is(err, flash.ErrRefused) || !strings.Contains(err.Error(), "limits.pay_per_day") {
		t.Fatalf("limit per day raised: %v", err)
	}
	if k := kinds(records(t, b.cfg.DataDir)); k[journal.KindConfigChange] != 0 {
		t.Fatalf("refused configuration journalled: %v", k)
	}
	renamed := b.cfg
	renamed.RetailerName = "TABAC DU PORT"
	if res, err := sendBytes(c, flash.Config, encode(renamed)); err != nil {
		t.Fatalf("retailer renamed: %+v %v", res, err)
	}
	if err := d.ended(10 * time.Second); !errors.Is(err, ErrRestart) {
		t.Fatalf("Run returned %v, want a restart", err)
	}
	var detail []string
	for _, r := range records(t, b.cfg.DataDir) {
		if r.Kind == journal.KindConfigChange {
			detail = append(detail, r.Detail)
		}
	}
	want := `terminal.retailer_name: "` + b.cfg.RetailerName + `" -> "TABAC DU PORT"`
	if len(detail) != 1 || !strings.Contains(detail[0], want) {
		t.Fatalf("config-change records %q, want one holding %q", detail, want)
	}
}

// Issue 47, the retailer with root puts back an older operator key statement (or removes
// it) to bring a retired key back into trust: statements 1 then 2 installed over the link
// are journalled; with statement 1 copied back over 2, or none, the terminal starts with
// DONNÉES REFUSÉES and judges and pays nothing; statement 2 back, it pays.
func TestOlderKeyStatementRefused(t *testing.T) {
	tb := newTestBlock(t, 12)
	b := newBoard(t, tb)
	b.installLedger(t, tb)
	b.installStatus(t, tb)
	b.cfg.Maintenance = "tcp:" + freeAddr(t)
	pub, err := ledger.LoadPublicKey(tb.pub)
	if err != nil {
		t.Fatal(err)
	}
	stmt := map[uint64][]byte{}
	for _, v := range []uint64{1, 2} {
		if stmt[v], err = ledger.SignKeyStatement(v, []ed25519.PublicKey{pub}, tb.key); err != nil {
			t.Fatal(err)
		}
	}
	o := Options{RestartQuiet: 200 * time.Millisecond}
	for _, v := range []uint64{1, 2} {
		d := b.start(t, o)
		if res, err := sendBytes(tcpClient(d.r.Maintenance, testToken), flash.Keys, stmt[v]); err != nil {
			t.Fatalf("statement %d: %+v %v", v, res, err)
		}
		if err := d.ended(10 * time.Second); !errors.Is(err, ErrRestart) {
			t.Fatalf("Run returned %v, want a restart", err)
		}
	}
	path := filepath.Join(b.cfg.DataDir, ledger.KeyStatementFile)
	_, code := tb.winner(t, func(lot int64) bool { return lot > 0 && lot <= 30_00 })
	for _, put := range []func(){
		func() { os.WriteFile(path, stmt[1], 0o644) },
		func() { os.Remove(path) },
	} {
		put()
		d := b.start(t, o)
		d.expect("DONNÉES REFUSÉES")
		d.scan(b, code, "DONNÉES REFUSÉES")
		if err := d.stop(); err != nil {
			t.Fatal(err)
		}
	}
	if k := kinds(records(t, b.cfg.DataDir)); k[journal.KindPayout] != 0 {
		t.Fatalf("paid on a rolled-back trust: %v", k)
	}
	os.WriteFile(path, stmt[2], 0o644)
	d := b.start(t, o)
	d.scan(b, code, "GAGNANT")
	if err := d.stop(); err != nil {
		t.Fatal(err)
	}
}
