package fleet_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/nats-io/jwt/v2"
	natsserver "github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nkeys"

	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/device/fleet/fleettest"
	"github.com/packterm/pos/device/fleet/server"
	"github.com/packterm/pos/validate/journal"
)

// jwtFleet is a fleet on a NATS server in operator (JWT) mode, as an operator running
// nats-server with nsc-made JWTs would have it: an operator, a system account, a fleet
// account with JetStream and the fleet's exports, the operator's service user (every
// permission in the account) and, per terminal, its own account and user made by
// server.NewTerminalCreds, resolved from memory.
type jwtFleet struct {
	url    string
	js     jetstream.JetStream
	stores *server.Stores
	creds  map[string]string // terminal id -> .creds file
	// resolver holds the accounts' JWTs.
	resolver *natsserver.MemAccResolver
}

func newJWTFleet(t *testing.T, terminals ...string) *jwtFleet {
	t.Helper()
	dir := t.TempDir()
	okp, _ := nkeys.CreateOperator()
	opub, _ := okp.PublicKey()
	oc := jwt.NewOperatorClaims(opub)
	oc.Name = "packterm"
	account := func(name string, js bool) (nkeys.KeyPair, string, string) {
		kp, _ := nkeys.CreateAccount()
		pub, _ := kp.PublicKey()
		ac := jwt.NewAccountClaims(pub)
		ac.Name = name
		if js { // the fleet's account: its streams and buckets, and the exports terminals import
			ac.Limits.JetStreamLimits = jwt.JetStreamLimits{MemoryStorage: -1, DiskStorage: -1, Streams: -1, Consumer: -1}
			ac.Exports = server.FleetAccountExports()
		}
		token, err := ac.Encode(okp)
		if err != nil {
			t.Fatal(err)
		}
		return kp, pub, token
	}
	_, sysPub, sysJWT := account("SYS", false)
	akp, apub, aJWT := account("FLEET", true)
	resolver := &natsserver.MemAccResolver{}
	resolver.Store(sysPub, sysJWT)
	resolver.Store(apub, aJWT)
	ns, err := natsserver.NewServer(&natsserver.Options{Host: "127.0.0.1", Port: natsserver.RANDOM_PORT, JetStream: true,
		StoreDir: filepath.Join(dir, "jetstream"), TrustedOperators: []*jwt.OperatorClaims{oc}, AccountResolver: resolver,
		SystemAccount: sysPub, NoLog: true, NoSigs: true})
	if err != nil {
		t.Fatal(err)
	}
	ns.Start()
	t.Cleanup(func() { ns.Shutdown(); ns.WaitForShutdown() })
	if !ns.ReadyForConnections(10 * time.Second) {
		t.Fatal("server not ready")
	}
	f := &jwtFleet{url: ns.ClientURL(), creds: map[string]string{}, resolver: resolver}

	// The operator's service user: no restriction within the fleet account.
	ukp, _ := nkeys.CreateUser()
	upub, _ := ukp.PublicKey()
	useed, _ := ukp.Seed()
	token, err := jwt.NewUserClaims(upub).Encode(akp)
	if err != nil {
		t.Fatal(err)
	}
	svcCreds := filepath.Join(dir, "service.creds")
	b, _ := jwt.FormatUserConfig(token, useed)
	if err := os.WriteFile(svcCreds, b, 0o600); err != nil {
		t.Fatal(err)
	}
	reg := &server.Registry{Operator: upub}
	for i, id := range terminals {
		p := filepath.Join(dir, id+".creds")
		made, err := server.NewTerminalCreds(p, id, okp, apub)
		if err != nil {
			t.Fatal(err)
		}
		resolver.Store(made.Account, made.AccountJWT) // nsc push
		reg.Terminals = append(reg.Terminals, server.Terminal{ID: id, Retailer: uint32(100 + i), NKey: made.User})
		f.creds[id] = p
	}
	op, err := server.ConnectOperator(f.url, svcCreds, "") // posctl fleet service --creds service.creds
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(op.Close)
	blk := fleettest.NewBlock(t, 7, 400, secretOf, tierOf)
	f.js, f.stores = fleettest.RunService(t, op, reg, server.ServiceOptions{Ledgers: blk.Set(t), Trust: blk.Trust})
	for _, tm := range reg.Terminals {
		if _, err := server.PublishStatus(context.Background(), f.stores, blk.Status(t, tm.Retailer, 1, blk.Delivered()), blk.Trust); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

func (f *jwtFleet) terminal(t *testing.T, id, creds string) *terminal {
	t.Helper()
	c, j := fleettest.Connect(t, fleet.Options{Terminal: id, URL: f.url, Credentials: creds, Timeout: time.Second})
	return &terminal{id: id, j: j, c: c}
}

// TestOperatorModeCreds: in operator/account (JWT) mode, a terminal whose [fleet]
// credentials is a .creds file from server.NewTerminalCreds (the permissions of the nkey
// mode in its user JWT) publishes its journal and claims; it cannot publish, claim or
// read as another terminal, nor reach JetStream itself.
func TestOperatorModeCreds(t *testing.T) {
	f := newJWTFleet(t, "T000", "T001")
	a := f.terminal(t, "T000", f.creds["T000"])
	b := f.terminal(t, "T001", f.creds["T001"])
	waitOnline(t, a.c)
	waitOnline(t, b.c)
	ctx := context.Background()
	for i := range 3 {
		mustAppend(t, a.j, payout(ticketN(i), 500, false))
	}
	if err := a.c.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	var recs []journal.Record
	bad, err := server.ReadJournal(ctx, f.js, func(r journal.Record) error { recs = append(recs, r); return nil })
	if err != nil || len(bad) != 0 || len(recs) != 3 || recs[2].ID() != "T000/3" {
		t.Fatalf("stream: %d records, bad %v, err %v", len(recs), bad, err)
	}
	if _, err := a.c.Claim(ctx, codeOf(ticketN(10)), lotOf(ticketN(10))); err != nil {
		t.Fatalf("claim: %v", err)
	}
	var taken *fleet.TakenError
	if _, err := b.c.Claim(ctx, codeOf(ticketN(10)), lotOf(ticketN(10))); !errors.As(err, &taken) || taken.Holder.Terminal != "T000" {
		t.Fatalf("second claim: %v", err)
	}

	// T000's credentials, used as T001: every subject of T001 is refused.
	perm := make(chan error, 16)
	nc, err := nats.Connect(f.url, nats.UserCredentials(f.creds["T000"]), nats.CustomInboxPrefix(fleet.InboxPrefix+"T000"),
		nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) { perm <- err }))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	if _, err := nc.Request(fleet.ClaimPrefix+"T001", []byte(`{"ticket":{"Block":7,"Pack":9,"Position":1},"amount":1,"at":"2026-12-02T10:00:00Z"}`), 300*time.Millisecond); err == nil {
		t.Fatal("a claim as another terminal was answered")
	}
	nc.Publish("journal.T001.payout", []byte("x"))
	nc.Publish("$JS.API.INFO", nil)
	nc.Subscribe(fleet.InboxPrefix+"T001.>", func(*nats.Msg) {})
	nc.Subscribe("journal.>", func(*nats.Msg) {})
	nc.Flush()
	wantViolations(t, perm, 5, 3*time.Second)
	// The fleet client told it is T001 but holding T000's credentials: no claim goes through.
	posing := f.terminal(t, "T001", f.creds["T000"])
	time.Sleep(200 * time.Millisecond)
	if _, err := posing.c.Claim(ctx, codeOf(ticketN(11)), lotOf(ticketN(11))); err == nil {
		t.Fatal("a client posing as T001 claimed")
	}
	if _, err := f.stores.Claims.Get(ctx, fleet.ClaimKey(ticketN(11))); err == nil {
		t.Fatal("a claim made by a posing client is stored")
	}
}
