package console

import (
	"bufio"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/device/fleet/server"
	"github.com/packterm/pos/internal/testblock"
	"github.com/packterm/pos/validate/block"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/game"
	"github.com/packterm/pos/validate/journal"
	"github.com/packterm/pos/validate/ledger"
	"github.com/packterm/pos/validate/settle"
)

// testFleet is a single-node fleet server with its streams and buckets, a terminal's
// real journal publishing on it, and a block's truth.
type testFleet struct {
	js    jetstream.JetStream
	st    *server.Stores
	nc    *nats.Conn
	j     *journal.Journal
	truth *settle.Truth
	plan  *block.Plan
	def   *game.Definition
}

var testSeed = block.Seed{7, 7, 7, 1}

func startFleet(t *testing.T) *testFleet {
	t.Helper()
	dir := t.TempDir()
	reg, err := server.InitData(dir)
	if err != nil {
		t.Fatal(err)
	}
	s, err := server.Start(server.Options{DataDir: dir, Listen: "127.0.0.1:0", Registry: reg})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Shutdown)
	nc, err := s.ConnectInProcess(filepath.Join(dir, server.OperatorSeedFile))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	st, err := server.EnsureStores(ctx, js, 1)
	if err != nil {
		t.Fatal(err)
	}
	j, err := journal.Open(t.TempDir(), journal.Options{Terminal: "T1"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close() })
	def, err := game.ParseSource([]byte(testblock.TwoEuroDefinition))
	if err != nil {
		t.Fatal(err)
	}
	plan, err := block.NewPlan(def, 7, testSeed)
	if err != nil {
		t.Fatal(err)
	}
	truth, err := settle.NewTruth(settle.Block{Manifest: settle.Manifest{Block: 7, Seed: testSeed, Packs: def.BlockPacks,
		Patterns: len(plan.Design.Patterns), DefinitionSHA256: block.DefinitionSHA256(def)}, Def: def})
	if err != nil {
		t.Fatal(err)
	}
	return &testFleet{js: js, st: st, nc: nc, j: j, truth: truth, plan: plan, def: def}
}

// ticket finds a ticket of block 7 whose prize (cents) satisfies want.
func (f *testFleet) ticket(t *testing.T, want func(int64) bool) codes.TicketID {
	t.Helper()
	for pack := range f.def.BlockPacks {
		for pos := 1; pos <= 8; pos++ {
			id := codes.TicketID{Block: 7, Pack: uint32(pack), Position: uint8(pos)}
			if _, lot, _ := f.plan.Prize(id); want(int64(lot)) {
				return id
			}
		}
	}
	t.Fatal("no such ticket")
	return codes.TicketID{}
}

// pay journals a payout of id for amount at the terminal and publishes it as the
// terminal's fleet client does; genuine: with the ticket's true code and its claim in
// the claims bucket; else a forgery (a made-up secret, no claim).
func (f *testFleet) pay(t *testing.T, id codes.TicketID, amount int64, genuine bool) journal.Record {
	t.Helper()
	secret := [codes.SecretSize]byte{1, 2, 3}
	if genuine {
		if err := testSeed.Secrets([]codes.TicketID{id}, func(_ codes.TicketID, s [codes.SecretSize]byte) { secret = s }); err != nil {
			t.Fatal(err)
		}
	}
	r, err := f.j.Append(journal.Entry{Kind: journal.KindPayout, Ticket: id, Amount: amount, Code: codes.ValidationCodeOf(id, secret)})
	if err != nil {
		t.Fatal(err)
	}
	if genuine {
		b, _ := json.Marshal(fleet.Claim{Terminal: "T1", At: time.Now(), Amount: amount, Record: r.ID()})
		if _, err := f.st.Claims.Create(context.Background(), fleet.ClaimKey(id), b); err != nil {
			t.Fatal(err)
		}
	}
	m := &nats.Msg{Subject: fleet.JournalSubject(&r), Data: journal.AppendRecord(nil, &r), Header: nats.Header{}}
	m.Header.Set(jetstream.MsgIDHeader, fleet.MsgID(&r))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := f.js.PublishMsg(ctx, m); err != nil {
		t.Fatal(err)
	}
	return r
}

// feed runs c.Feed on f until the test ends and waits until it has loaded.
func (f *testFleet) feed(t *testing.T, c *Console) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		if err := c.Feed(ctx, f.js, f.st, func() { close(ready) }); err != nil {
			t.Error(err)
			close(ready)
		}
	}()
	t.Cleanup(func() { cancel(); <-done })
	select {
	case <-ready:
	case <-time.After(20 * time.Second):
		t.Fatal("the feed did not load")
	}
}

// client logs in to the console served at u and returns a client with the session.
func loggedClient(t *testing.T, u string) *http.Client {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	cl := &http.Client{Jar: jar, Timeout: 10 * time.Second}
	resp, err := cl.PostForm(u+"/login", url.Values{"token": {testToken}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK { // the redirect to the overview, followed
		t.Fatalf("login: %d", resp.StatusCode)
	}
	return cl
}

func fetch(t *testing.T, cl *http.Client, u string) string {
	t.Helper()
	req, _ := http.NewRequest("GET", u, nil)
	req.Header.Set("Accept", "text/html")
	resp, err := cl.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %s", u, resp.StatusCode, b)
	}
	return string(b)
}

// TestFeedLive: the console loads what the fleet holds, a payout published afterwards
// reaches an open /events stream within a second and the overview, and settlement flags
// a forged payout (a loser paid) with its terminal and record.
func TestFeedLive(t *testing.T) {
	f := startFleet(t)
	loser := f.ticket(t, func(p int64) bool { return p == 0 })
	winner := f.ticket(t, func(p int64) bool { return p > 0 })
	_, lot, _ := f.plan.Prize(winner)
	f.pay(t, winner, int64(lot), true)
	c, err := New(Options{Addr: "127.0.0.1:0", Token: testToken, Settling: &Settling{Truth: f.truth}})
	if err != nil {
		t.Fatal(err)
	}
	c.Model().SetRegistry(registry(map[string]uint32{"T1": 1}))
	f.feed(t, c)
	if o := c.Model().Overview(c.today(), time.Now(), DefaultSilentAfter); o.Payouts != 1 || o.Online != 1 {
		t.Fatalf("loaded: %d payouts, %d online", o.Payouts, o.Online)
	}
	srv := httptest.NewServer(c)
	t.Cleanup(srv.Close)
	cl := loggedClient(t, srv.URL)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+"/events", nil)
	resp, err := (&http.Client{Jar: cl.Jar}).Do(req)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("events: %v %v", err, resp)
	}
	defer resp.Body.Close()
	lines := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	if l := <-lines; l != ": live" {
		t.Fatalf("first line %q", l)
	}
	start := time.Now()
	forged := f.pay(t, loser, 5000, false)
	deadline := time.After(time.Second)
	for got := false; !got; {
		select {
		case l := <-lines:
			got = strings.HasPrefix(l, "data: ") && strings.Contains(l, `"terminal":"T1"`) && strings.Contains(l, `"seq":2`)
		case <-deadline:
			t.Fatal("the payout did not arrive within a second")
		}
	}
	t.Logf("payout to event: %v", time.Since(start))
	if b := fetch(t, cl, srv.URL+"/"); !strings.Contains(b, `id="n-payouts"><div class="n">2<`) {
		t.Error("the overview does not count the new payout")
	}
	b := fetch(t, cl, srv.URL+"/settle?lang=en")
	if !strings.Contains(b, `id="flagged-count">1<`) || !strings.Contains(b, forged.ID()) || !strings.Contains(b, settle.ReasonLoserPaid) ||
		strings.Contains(b, "<td>T1/1</td>") {
		t.Errorf("settlement does not flag the forged payout %s: %s", forged.ID(), b)
	}
	js := fetch(t, cl, srv.URL+"/settle.json")
	if !strings.Contains(js, `"record": "`+forged.ID()+`"`) || strings.Contains(js, forged.CodeText()) {
		t.Error("JSON export")
	}
	if csv := fetch(t, cl, srv.URL+"/settle.csv"); !strings.Contains(csv, "flag,") || !strings.Contains(csv, forged.ID()) {
		t.Error("CSV export")
	}
}

// fleetState is what the fleet holds: each stream's and bucket's message count, bytes
// and last sequence.
func fleetState(t *testing.T, f *testFleet) [5][3]uint64 {
	t.Helper()
	ctx := context.Background()
	var out [5][3]uint64
	for i, name := range []string{fleet.JournalStream, fleet.RefusalStream, "KV_" + fleet.ClaimsBucket, "KV_" + fleet.ConflictBucket, "KV_" + fleet.StatusBucket} {
		s, err := f.js.Stream(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		info, err := s.Info(ctx)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = [3]uint64{info.State.Msgs, info.State.Bytes, info.State.LastSeq}
	}
	return out
}

// TestConsoleOnlyReads: loading the fleet, following it and serving every page and
// export changes nothing the fleet holds (its streams and buckets, message for message).
func TestConsoleOnlyReads(t *testing.T) {
	f := startFleet(t)
	winner := f.ticket(t, func(p int64) bool { return p > 0 })
	_, lot, _ := f.plan.Prize(winner)
	f.pay(t, winner, int64(lot), true)
	before := fleetState(t, f)
	c, err := New(Options{Addr: "127.0.0.1:0", Token: testToken, Settling: &Settling{Truth: f.truth}})
	if err != nil {
		t.Fatal(err)
	}
	f.feed(t, c)
	srv := httptest.NewServer(c)
	t.Cleanup(srv.Close)
	cl := loggedClient(t, srv.URL)
	for _, p := range []string{"/", "/terminals", "/terminals/T1", "/records?kind=payout", "/refusals", "/conflicts", "/settle", "/settle.json", "/settle.csv", "/retailers"} {
		fetch(t, cl, srv.URL+p)
	}
	if after := fleetState(t, f); after != before {
		t.Errorf("the fleet changed: %v, then %v", before, after)
	}
}

// TestFeedStatusLists: the retailers page shows each status list of the status bucket,
// the one there at start and one published later, and says which verifies with the
// operator's keys: a list signed with another key is marked as the service refuses it.
func TestFeedStatusLists(t *testing.T) {
	f := startFleet(t)
	pub, key, _ := ed25519.GenerateKey(nil)
	_, stranger, _ := ed25519.GenerateKey(nil)
	put := func(retailer uint32, k ed25519.PrivateKey) {
		data, err := ledger.MarshalStatus(&ledger.StatusList{Retailer: retailer, Version: 2, Issued: time.Now().Unix(),
			Ranges: []ledger.PackRange{{Block: 7, First: 0, Count: 4, State: ledger.PackDelivered}}}, k)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.st.Status.Put(context.Background(), server.StatusKey(retailer), data); err != nil {
			t.Fatal(err)
		}
	}
	put(1, key)
	c, err := New(Options{Addr: "127.0.0.1:0", Token: testToken, Trust: ledger.NewTrustStore(pub)})
	if err != nil {
		t.Fatal(err)
	}
	sub := c.hub.subscribe()
	f.feed(t, c)
	put(2, stranger)
	for seen := 0; seen < 2; {
		select {
		case e := <-sub:
			if e.Kind == "status" {
				seen++
			}
		case <-time.After(10 * time.Second):
			t.Fatal("the status lists did not arrive")
		}
	}
	srv := httptest.NewServer(c)
	t.Cleanup(srv.Close)
	b := fetch(t, loggedClient(t, srv.URL), srv.URL+"/retailers")
	one, two := b[strings.Index(b, `id="retailer-1"`):strings.Index(b, `id="retailer-2"`)], b[strings.Index(b, `id="retailer-2"`):]
	if !strings.Contains(one, `class="sig-ok"`) || strings.Contains(one, "sig-bad") || !strings.Contains(two, `class="flag sig-bad"`) {
		t.Errorf("retailers page: %s", b)
	}
}
