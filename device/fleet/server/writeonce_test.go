package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/validate/codes"
)

// rewrite tries every way the operator's own connection has to replace or remove the
// value of key in bucket (the stream API, the KV API, a plain publish and a JetStream
// acknowledgement sent there as a reply) and returns the attempts that JetStream
// accepted.
func rewrite(ctx context.Context, t *testing.T, js jetstream.JetStream, kv jetstream.KeyValue, bucket, key string) []string {
	t.Helper()
	nc := js.Conn()
	subject := "$KV." + bucket + "." + key
	junk := []byte(`{"stream":"JOURNAL","seq":1}`)
	var accepted []string
	try := func(what string, err error) {
		if err == nil {
			accepted = append(accepted, what)
		}
	}
	// Attack 2 of issue 46: a message stored by the journal stream, with the subject as
	// reply subject: JetStream's acknowledgement is published there. Once a subscriber on
	// the subject has it, the bucket's stream has it queued before the requests below.
	seen, err := nc.SubscribeSync(subject)
	if err != nil {
		t.Fatal(err)
	}
	defer seen.Unsubscribe()
	if err := nc.PublishRequest("journal.B.payout", subject, []byte("junk")); err != nil {
		t.Fatal(err)
	}
	if _, err := seen.NextMsg(5 * time.Second); err != nil {
		t.Fatalf("the acknowledgement: %v", err)
	}
	// A plain publish has no answer: the request after it on the same connection is
	// answered once the server has handled it.
	if err := nc.Publish(subject, junk); err != nil {
		t.Fatal(err)
	}
	_, err = js.Publish(ctx, subject, junk)
	try("publish", err)
	_, err = kv.Put(ctx, key, junk)
	try("kv.Put", err)
	_, err = kv.Update(ctx, key, junk, 1)
	try("kv.Update", err)
	try("kv.Delete", kv.Delete(ctx, key))
	try("kv.Purge", kv.Purge(ctx, key))
	_, err = kv.Create(ctx, key, junk)
	try("kv.Create", err)
	s, err := js.Stream(ctx, kvStream(bucket))
	if err != nil {
		t.Fatal(err)
	}
	try("stream purge of the subject", s.Purge(ctx, jetstream.WithPurgeSubject(subject)))
	try("stream purge", s.Purge(ctx))
	try("stream message delete", s.DeleteMsg(ctx, 1))
	try("stream message erase", s.SecureDeleteMsg(ctx, 1))
	return accepted
}

// A claim is written once, for ever (issue 46): nothing the operator's own connection
// sends on the claim's subject, through the KV API or the stream API replaces or removes
// it. Before, the bucket kept the last message on the subject: a Put, a plain publish or
// a JetStream acknowledgement sent there replaced the claim.
func TestClaimIsWrittenOnce(t *testing.T) {
	js := jetStreamServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	st, err := EnsureStores(ctx, js, 1)
	if err != nil {
		t.Fatal(err)
	}
	key := fleet.ClaimKey(codes.TicketID{Block: 42, Pack: 28, Position: 2})
	claim, _ := json.Marshal(fleet.Claim{Terminal: "A1", At: time.Date(2026, 12, 7, 10, 0, 0, 0, time.UTC), Amount: 30_00})
	if _, err := st.Claims.Create(ctx, key, claim); err != nil {
		t.Fatal(err)
	}
	if got := rewrite(ctx, t, js, st.Claims, fleet.ClaimsBucket, key); len(got) > 0 {
		t.Errorf("accepted on an existing claim: %v", got)
	}
	e, err := st.Claims.Get(ctx, key)
	if err != nil {
		t.Fatalf("claim after the attempts: %v", err)
	}
	if !bytes.Equal(e.Value(), claim) || e.Revision() != 1 {
		t.Fatalf("claim after the attempts: revision %d %q", e.Revision(), e.Value())
	}
	if c, bad, err := AllClaims(ctx, st.Claims); err != nil || len(bad) > 0 || c[codes.TicketID{Block: 42, Pack: 28, Position: 2}] != "A1" {
		t.Fatalf("all claims: %v %v", c, err)
	}
	// Create still refuses with ErrKeyExists (the service's "lost the race" path).
	if _, err := st.Claims.Create(ctx, key, claim); !errors.Is(err, jetstream.ErrKeyExists) {
		t.Fatalf("second create: %v, want ErrKeyExists", err)
	}
	// The configuration cannot be relaxed back to a purgeable, deletable stream.
	s, _ := js.Stream(ctx, kvStream(fleet.ClaimsBucket))
	cfg := s.CachedInfo().Config
	cfg.DenyPurge, cfg.DenyDelete = false, false
	if _, err := js.UpdateStream(ctx, cfg); err == nil {
		t.Fatal("the claims stream's deny purge and deny delete were cancelled")
	}
}

// The conflicts bucket is write-once too, and recording the same conflict again (a claim
// retried) still succeeds.
func TestConflictIsWrittenOnce(t *testing.T) {
	js := jetStreamServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	st, err := EnsureStores(ctx, js, 1)
	if err != nil {
		t.Fatal(err)
	}
	s := NewService(js.Conn(), st, ServiceOptions{})
	id := codes.TicketID{Block: 42, Pack: 28, Position: 2}
	c := fleet.Conflict{Ticket: id, Holder: fleet.Claim{Terminal: "A1", Amount: 30_00}, Other: fleet.Claim{Terminal: "B", Amount: 30_00, Unconfirmed: true, Record: "B/3"}}
	for range 2 {
		if err := s.recordConflict(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	third := c
	third.Other = fleet.Claim{Terminal: "C", Amount: 30_00, Unconfirmed: true, Record: "C/9"}
	if err := s.recordConflict(ctx, third); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		filter string
		want   int
	}{{"c.A1.>", 2}, {"c.B.>", 1}, {"c.C.>", 1}} {
		if cs, err := Conflicts(ctx, st.Conflicts, tc.filter, 0); err != nil || len(cs) != tc.want {
			t.Errorf("%s: %v %v, want %d", tc.filter, cs, err, tc.want)
		}
	}
	key := fleet.ConflictEntryKey("A1", "B", id)
	if got := rewrite(ctx, t, js, st.Conflicts, fleet.ConflictBucket, key); len(got) > 0 {
		t.Errorf("accepted on an existing conflict: %v", got)
	}
	if cs, err := Conflicts(ctx, st.Conflicts, "c.A1.>", 0); err != nil || len(cs) != 2 || cs[0].Other.Terminal != "B" {
		t.Fatalf("conflicts after the attempts: %v %v", cs, err)
	}
}

// A fleet whose buckets were made before they were write-once (jetstream's
// CreateKeyValue, one version) gets them updated in place by EnsureStores, its claims
// kept.
func TestEnsureStoresMakesOldBucketsWriteOnce(t *testing.T) {
	js := jetStreamServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	old := map[string]jetstream.KeyValue{}
	for _, b := range []string{fleet.ClaimsBucket, fleet.ConflictBucket} {
		kv, err := js.CreateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: b, History: 1, Storage: jetstream.FileStorage, MaxValueSize: 4 << 10})
		if err != nil {
			t.Fatal(err)
		}
		old[b] = kv
	}
	key := fleet.ClaimKey(codes.TicketID{Block: 7, Pack: 1, Position: 3})
	claim, _ := json.Marshal(fleet.Claim{Terminal: "A1", Amount: 5_00})
	if _, err := old[fleet.ClaimsBucket].Create(ctx, key, claim); err != nil {
		t.Fatal(err)
	}
	if _, err := old[fleet.ClaimsBucket].Put(ctx, key, claim); err != nil {
		t.Fatalf("the old bucket refuses a Put already: %v", err) // the test's premise
	}
	st, err := EnsureStores(ctx, js, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got := rewrite(ctx, t, js, st.Claims, fleet.ClaimsBucket, key); len(got) > 0 {
		t.Errorf("accepted on an existing claim after the update: %v", got)
	}
	if e, err := st.Claims.Get(ctx, key); err != nil || !bytes.Equal(e.Value(), claim) {
		t.Fatalf("claim after the update: %v", err)
	}
	for _, b := range []string{fleet.ClaimsBucket, fleet.ConflictBucket} {
		s, err := js.Stream(ctx, kvStream(b))
		if err != nil {
			t.Fatal(err)
		}
		c := s.CachedInfo().Config
		if !c.DiscardNewPerSubject || c.AllowRollup || !c.DenyPurge || !c.DenyDelete || c.MaxMsgsPerSubject != 1 {
			t.Errorf("%s after EnsureStores: %+v", b, c)
		}
	}
	// Run again (every start does): nothing to change.
	if _, err := EnsureStores(ctx, js, 1); err != nil {
		t.Fatal(err)
	}
}
