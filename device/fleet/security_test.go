package fleet_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/device/fleet/server"
	"github.com/packterm/pos/validate/journal"
	"github.com/packterm/pos/validate/ledger"
)

// TestCannotPoseAsAnother: terminal T000's credentials publish and claim only as T000.
func TestCannotPoseAsAnother(t *testing.T) {
	f := newRegistry(t, 2)
	f.start(t, 1, nil)
	a := f.terminal(t, "T000", f.urls[0], nil)
	waitOnline(t, a.c)
	perm := make(chan error, 16)
	opt, _ := nats.NkeyOptionFromSeed(f.seeds["T000"])
	nc, err := nats.Connect(f.urls[0], opt, nats.CustomInboxPrefix(fleet.InboxPrefix+"T000"),
		nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) { perm <- err }))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	// Claim as T001: the request subject is refused, nothing is claimed.
	if _, err := nc.Request(fleet.ClaimPrefix+"T001", []byte(`{"ticket":{"Block":7,"Pack":1,"Position":1},"amount":1,"at":"2026-12-02T10:00:00Z"}`), 300*time.Millisecond); err == nil {
		t.Fatal("a claim as another terminal was answered")
	}
	// Publish a journal record under T001's subjects: refused by the server.
	nc.Publish("journal.T001.payout", []byte("x"))
	// Read another terminal's replies or the stream: refused.
	nc.Subscribe(fleet.InboxPrefix+"T001.>", func(*nats.Msg) {})
	nc.Subscribe("journal.>", func(*nats.Msg) {})
	nc.Flush()
	wantViolations(t, perm, 4, 2*time.Second)
	if e, err := f.stores.Claims.Get(context.Background(), fleet.ClaimKey(ticketN(8))); err == nil {
		t.Fatalf("claim stored: %s", e.Value())
	}
	// A record naming T001 published under T000's own subject: the reader refuses it.
	other := t.TempDir()
	j, err := journal.Open(other, journal.Options{Terminal: "T001"})
	if err != nil {
		t.Fatal(err)
	}
	r := mustAppend(t, j, payout(ticketN(9), 100, false))
	j.Close()
	if _, err := f.js.Publish(context.Background(), "journal.T000.payout", journal.AppendRecord(nil, &r)); err != nil {
		t.Fatal(err)
	}
	recs, bad := streamRecords(t, f)
	if len(recs) != 0 || len(bad) != 1 || !errors.Is(bad[0].Err, fleet.ErrMessage) {
		t.Fatalf("posing record: %d accepted, bad %v", len(recs), bad)
	}
	// An unknown key does not connect at all.
	dir := t.TempDir()
	if _, err := server.NewSeedFile(filepath.Join(dir, "x.nk")); err != nil {
		t.Fatal(err)
	}
	opt, _ = nats.NkeyOptionFromSeed(filepath.Join(dir, "x.nk"))
	if nc, err := nats.Connect(f.urls[0], opt); err == nil {
		nc.Close()
		t.Fatal("an unregistered nkey connected")
	}
}

// testCA makes a CA and a server certificate for 127.0.0.1; it returns the CA file and
// the server's TLS configuration.
func testCA(t *testing.T) (string, *tls.Config) {
	t.Helper()
	caKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	caTmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "fleet test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IsCA: true,
		KeyUsage: x509.KeyUsageCertSign, BasicConstraintsValid: true}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	ca, _ := x509.ParseCertificate(caDER)
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "fleet"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		KeyUsage: x509.KeyUsageDigitalSignature}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER}), 0o644); err != nil {
		t.Fatal(err)
	}
	cert := tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
	return path, &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
}

// TestTLSWithConfiguredCA: with a CA configured the terminal speaks TLS and claims; a
// client that does not trust the CA cannot connect.
func TestTLSWithConfiguredCA(t *testing.T) {
	caFile, cfg := testCA(t)
	f := newRegistry(t, 1)
	f.ca = caFile
	f.start(t, 1, func(o *server.Options) { o.TLS = cfg })
	a := f.terminal(t, "T000", f.urls[0], func(o *fleet.Options) { o.CA = caFile })
	waitOnline(t, a.c)
	if _, err := a.c.Claim(context.Background(), codeOf(ticketN(1)), lotOf(ticketN(1))); err != nil {
		t.Fatal(err)
	}
	opt, _ := nats.NkeyOptionFromSeed(f.seeds["T000"])
	if nc, err := nats.Connect(f.urls[0], opt); err == nil {
		nc.Close()
		t.Fatal("connected without trusting the CA")
	}
}

// TestStatusListThroughFleet: the operator publishes a signed list; the terminal fetches,
// verifies and installs it; a list signed by an unknown key or for another retailer is
// refused and the installed list stays.
func TestStatusListThroughFleet(t *testing.T) {
	f := newRegistry(t, 2)
	f.noStatus = true
	f.start(t, 1, nil)
	a := f.terminal(t, "T000", f.urls[0], nil) // retailer 100
	waitOnline(t, a.c)
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	trust := ledger.NewTrustStore(pub)
	list := &ledger.StatusList{Retailer: 100, Version: 3, Ranges: []ledger.PackRange{{Block: 7, First: 0, Count: 10, State: ledger.PackDelivered}}}
	data, err := ledger.MarshalStatus(list, priv)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	dir := t.TempDir()
	if _, _, err := a.c.FetchStatus(ctx, 100, dir, trust); !errors.Is(err, fleet.ErrNoStatus) {
		t.Fatalf("no list yet: %v", err)
	}
	if _, err := server.PublishStatus(ctx, f.stores, data, trust); err != nil {
		t.Fatal(err)
	}
	res, changed, err := a.c.FetchStatus(ctx, 100, dir, trust)
	if err != nil || !changed || res.Version != 3 {
		t.Fatalf("fetch: %v %v %v", res, changed, err)
	}
	if _, err := ledger.LoadStatus(filepath.Join(dir, ledger.StatusFileName), trust); err != nil {
		t.Fatal(err)
	}
	if _, changed, err := a.c.FetchStatus(ctx, 100, dir, trust); err != nil || changed {
		t.Fatalf("second fetch: changed %v, %v", changed, err)
	}
	// Another retailer's list is not handed to this terminal.
	if _, _, err := a.c.FetchStatus(ctx, 101, dir, trust); err == nil {
		t.Fatal("fetched another retailer's list")
	}
	// A list the terminal does not trust is not installed.
	_, priv2, _ := ed25519.GenerateKey(rand.Reader)
	list.Version = 4
	bad, _ := ledger.MarshalStatus(list, priv2)
	if _, err := f.stores.Status.Put(ctx, server.StatusKey(100), bad); err != nil {
		t.Fatal(err)
	}
	if _, _, err := a.c.FetchStatus(ctx, 100, dir, trust); err == nil {
		t.Fatal("installed a list signed by an unknown key")
	}
	if s, err := ledger.LoadStatus(filepath.Join(dir, ledger.StatusFileName), trust); err != nil || s.Version != 3 {
		t.Fatalf("installed list changed: %v %v", s, err)
	}
}

// TestRunInstallsStatusList: Run keeps the status list up to date and says so once.
func TestRunInstallsStatusList(t *testing.T) {
	f := newRegistry(t, 1)
	f.noStatus = true
	f.start(t, 1, nil)
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	trust := ledger.NewTrustStore(pub)
	data, _ := ledger.MarshalStatus(&ledger.StatusList{Retailer: 100, Version: 9,
		Ranges: []ledger.PackRange{{Block: 7, First: 3, Count: 2, State: ledger.PackVoid}}}, priv)
	if _, err := server.PublishStatus(context.Background(), f.stores, data, trust); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	installed := make(chan ledger.Installed, 4)
	tm := f.terminal(t, "T000", f.urls[0], func(o *fleet.Options) {
		o.Retry = 20 * time.Millisecond
		o.Status = &fleet.StatusOptions{Retailer: 100, Dir: dir, Trust: trust, Every: time.Millisecond, Installed: func(r ledger.Installed) { installed <- r }}
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); tm.c.Run(ctx) }()
	select {
	case r := <-installed:
		if r.Version != 9 {
			t.Fatalf("installed %+v", r)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("status list never installed")
	}
	time.Sleep(100 * time.Millisecond) // a few more rounds: nothing new to install
	cancel()
	<-done
	if len(installed) != 0 {
		t.Fatalf("installed again %d times", len(installed))
	}
	if s, err := ledger.LoadStatus(filepath.Join(dir, ledger.StatusFileName), trust); err != nil || !s.Void(7, 4) {
		t.Fatalf("installed list: %v", err)
	}
}
