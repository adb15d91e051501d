package fleet_test

import (
	"bytes"
	"context"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/device/fleet/server"
)

// The reply subject is the requester's to choose: each attack below is terminal B's,
// made with nothing but its own credentials, on its own subjects, naming as its reply a
// subject where an answer would do harm (issue 46, attacks 1–5). Each answer must stay
// in B's own account.

// replyAttacks are the reply subjects B names, with what each would reach.
func replyAttacks(claimKey string) []string {
	return []string{
		"$KV.claims." + claimKey,                      // overwrite A1's claim (attacks 1, 2)
		"$KV.status.r.100",                            // wipe retailer 100's status list (attack 4)
		"$KV.claims.t.7.999.1",                        // mint a claim of an unclaimed ticket
		fleet.ClaimPrefix + "A1",                      // spend A1's rate limit, blamed on A1 (attack 5)
		"journal.A1.payout",                           // junk in A1's journal
		fleet.RefusalPrefix + "A1",                    // junk in the refusals stream under A1
		fleet.InboxPrefix + "A1.stolen",               // a message in A1's inbox
		"$JS.API.STREAM.PURGE." + fleet.JournalStream, // purge the operator's archive
		"$JS.API.STREAM.DELETE." + fleet.JournalStream,
		"$KV.claims.>",
	}
}

// TestReplySubjectReachesNothing: single node and a 3-node cluster.
func TestReplySubjectReachesNothing(t *testing.T) {
	for _, nodes := range []int{1, 3} {
		t.Run(strconv.Itoa(nodes)+"-node", func(t *testing.T) {
			if nodes > 1 && testing.Short() {
				t.Skip("cluster: not with -short")
			}
			testReplySubjectReachesNothing(t, nodes)
		})
	}
}

func testReplySubjectReachesNothing(t *testing.T, nodes int) {
	clock := clockwork.NewFakeClock()
	obs := newFloodObserver()
	f := newRegistry(t, 0, "A1", "A2", "B") // retailers 100, 101, 102; every pack delivered to each
	f.svc = func(o *server.ServiceOptions) { o.ClaimRate, o.ClaimBurst, o.Clock, o.Observer = 1, 10, clock, obs }
	f.start(t, nodes, nil)
	ctx := context.Background()

	// The operator's archive holds a record (the attempts to purge it below must fail).
	if _, err := f.js.Publish(ctx, "journal.A2.payout", []byte("a record")); err != nil {
		t.Fatal(err)
	}
	a1 := newInsider(t, f, "A1")
	x := ticketN(5)
	if rep := a1.claim(fleet.ClaimRequest{Ticket: x, Code: codeOf(x).String(), Amount: lotOf(x)}); rep.Result != fleet.ResultWon {
		t.Fatalf("A1's claim: %+v", rep)
	}
	key := fleet.ClaimKey(x)
	before, err := f.stores.Claims.Get(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	status, err := f.stores.Status.Get(ctx, server.StatusKey(100))
	if err != nil {
		t.Fatal(err)
	}
	var stolen atomic.Int32 // what reaches A1's inbox
	sub, err := a1.nc.Subscribe(fleet.InboxPrefix+"A1.stolen", func(*nats.Msg) { stolen.Add(1) })
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Unsubscribe()
	a1.nc.Flush()

	// B, connected to the last node, sends on each of its own subjects with each reply.
	b := newInsiderAt(t, f, "B", f.urls[len(f.urls)-1])
	n := sendReplyAttacks(t, b.nc, "B", "102", key)
	settled(t, obs, "B", n)

	after, err := f.stores.Claims.Get(ctx, key)
	if err != nil {
		t.Fatalf("A1's claim after B's requests: %v", err)
	}
	if after.Revision() != before.Revision() || !bytes.Equal(after.Value(), before.Value()) {
		t.Fatalf("A1's claim rewritten through a reply subject: %q (revision %d, was %d)", after.Value(), after.Revision(), before.Revision())
	}
	if keys := claimKeys(t, f); len(keys) != 1 {
		t.Fatalf("claims minted through a reply subject: %v", keys)
	}
	if now, err := f.stores.Status.Get(ctx, server.StatusKey(100)); err != nil || !bytes.Equal(now.Value(), status.Value()) {
		t.Fatalf("retailer 100's status list changed through a reply subject: %v", err)
	}
	a2 := newInsider(t, f, "A2")
	if rep := a2.claim(fleet.ClaimRequest{Ticket: x, Code: codeOf(x).String(), Amount: lotOf(x)}); rep.Result != fleet.ResultTaken || rep.Holder.Terminal != "A1" {
		t.Fatalf("A2 claims A1's ticket: %+v (a ticket paid twice)", rep)
	}
	// A1's 9 remaining tokens are its own: none was spent by B's answers.
	for i := range 9 {
		id := ticketN(20 + i)
		if rep := a1.claim(fleet.ClaimRequest{Ticket: id, Code: codeOf(id).String(), Amount: lotOf(id)}); rep.Result != fleet.ResultWon {
			t.Fatalf("A1's claim %d after B's answers: %+v", i, rep)
		}
	}
	for _, r := range refusals(t, f.js) {
		if r.Terminal != "B" {
			t.Errorf("a refusal blamed on %s: %+v", r.Terminal, r)
		}
	}
	if n := streamCount(t, f, "journal.A1.>"); n != 0 {
		t.Errorf("%d messages in the journal under A1's subjects", n)
	}
	// Nothing but a record of B's enters the operator's archive under B's name either
	// (the journal's intake): B's "anything" was refused.
	if n := streamCount(t, f, "journal.B.>"); n != 0 {
		t.Errorf("%d messages that are no record of B's in the journal under B's subjects", n)
	}
	if st, err := f.stores.Journal.Info(ctx); err != nil || st.State.Msgs == 0 {
		t.Errorf("journal stream after the attempted purge: %v", err)
	}
	if n := stolen.Load(); n != 0 {
		t.Errorf("%d answers delivered in A1's inbox", n)
	}
}

// sendReplyAttacks sends, as terminal id of retailer, on each of its own subjects, 20
// messages with each of replyAttacks' reply subjects.
func sendReplyAttacks(t *testing.T, nc *nats.Conn, id, retailer, claimKey string) (requests int) {
	t.Helper()
	for _, reply := range replyAttacks(claimKey) {
		for range 20 {
			for _, m := range []*nats.Msg{
				{Subject: fleet.StatusPrefix + id, Reply: reply, Data: []byte(retailer)},
				{Subject: fleet.ConflictsPrefix + id, Reply: reply},
				{Subject: fleet.ClaimPrefix + id, Reply: reply, Data: []byte(`{"ticket":"0007/0000011/8"}`)},
				{Subject: "journal." + id + ".payout", Reply: reply, Data: []byte("anything")},
			} {
				if err := nc.PublishMsg(m); err != nil {
					t.Fatal(err)
				}
				// The server refuses a reply in the JetStream API outright (a permission
				// violation): those never reach the service.
				if !strings.HasPrefix(m.Subject, "journal.") && !strings.HasPrefix(reply, "$JS.API.") {
					requests++
				}
			}
		}
	}
	return requests
}

// TestReplySubjectReachesNothingJWT: the same in operator/account (JWT) mode, each
// terminal in the account NewTerminalCreds made for it.
func TestReplySubjectReachesNothingJWT(t *testing.T) {
	obs := newFloodObserver()
	f := newJWTFleet(t, obs, "A1", "B")
	ctx := context.Background()
	a1 := f.terminal(t, "A1", f.creds["A1"])
	waitOnline(t, a1.c)
	x := ticketN(5)
	if _, err := a1.c.Claim(ctx, codeOf(x), lotOf(x)); err != nil {
		t.Fatal(err)
	}
	key := fleet.ClaimKey(x)
	before, err := f.stores.Claims.Get(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	nc, err := nats.Connect(f.url, nats.UserCredentials(f.creds["B"]), nats.CustomInboxPrefix(fleet.InboxPrefix+"B"), quiet())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	settled(t, obs, "B", sendReplyAttacks(t, nc, "B", "101", key))
	after, err := f.stores.Claims.Get(ctx, key)
	if err != nil || after.Revision() != before.Revision() || !bytes.Equal(after.Value(), before.Value()) {
		t.Fatalf("A1's claim after B's requests: %v", err)
	}
	if keys, err := f.stores.Claims.Keys(ctx); err != nil || len(keys) != 1 {
		t.Fatalf("claims: %v %v", keys, err)
	}
	if st, err := f.stores.Status.Get(ctx, server.StatusKey(100)); err != nil || len(st.Value()) == 0 {
		t.Fatalf("retailer 100's status list: %v", err)
	}
}

// quiet drops the connection's asynchronous errors (the permission violations an
// attack provokes are expected).
func quiet() nats.Option {
	return nats.ErrorHandler(func(*nats.Conn, *nats.Subscription, error) {})
}

// newInsiderAt is newInsider connected to url.
func newInsiderAt(t *testing.T, f *testFleet, id, url string) *insider {
	t.Helper()
	opt, err := nats.NkeyOptionFromSeed(f.seeds[id])
	if err != nil {
		t.Fatal(err)
	}
	nc, err := nats.Connect(url, opt, nats.CustomInboxPrefix(fleet.InboxPrefix+id), quiet())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return &insider{t: t, nc: nc, id: id}
}

// settled waits until the service took or dropped every one of the n requests terminal
// sent (its observer counts them), and the handlers' answers had time to land.
func settled(t *testing.T, obs *floodObserver, terminal string, n int) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for obs.seen(terminal) < n {
		if time.Now().After(deadline) {
			t.Fatalf("the service saw %d of %s's %d requests", obs.seen(terminal), terminal, n)
		}
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(200 * time.Millisecond)
}

// streamCount counts the journal stream's messages on subject filter.
func streamCount(t *testing.T, f *testFleet, filter string) uint64 {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	info, err := f.stores.Journal.Info(ctx, jetstream.WithSubjectFilter(filter))
	if err != nil {
		t.Fatal(err)
	}
	var n uint64
	for _, c := range info.State.Subjects {
		n += c
	}
	return n
}
