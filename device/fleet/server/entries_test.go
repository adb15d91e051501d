package server

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/ledger"
)

// statusFile is a signed status list of retailer (key: a fixed seed).
func statusFile(t testing.TB, retailer uint32) []byte {
	t.Helper()
	key := ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize))
	b, err := ledger.MarshalStatus(&ledger.StatusList{Retailer: retailer, Version: 1, Ranges: []ledger.PackRange{
		{Block: 42, First: 0, Count: 100, State: ledger.PackDelivered}}}, key)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A malformed entry in a bucket (issue 46, attack 3: a JetStream acknowledgement became
// a ticket's claim) is listed with its bucket and key, and the other entries are read.
// Before, AllClaims failed on it and fleet report and settle stopped (exit 1).
func TestBadValuesAreListedNotFatal(t *testing.T) {
	js := jetStreamServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	st, err := EnsureStores(ctx, js, 1)
	if err != nil {
		t.Fatal(err)
	}
	good, junk := codes.TicketID{Block: 42, Pack: 28, Position: 1}, codes.TicketID{Block: 42, Pack: 28, Position: 2}
	claim, _ := json.Marshal(fleet.Claim{Terminal: "A1", Amount: 30_00})
	ack := []byte(`{"stream":"JOURNAL","seq":7}`)
	for k, v := range map[string][]byte{fleet.ClaimKey(good): claim, fleet.ClaimKey(junk): ack, "x": claim} {
		if _, err := st.Claims.Create(ctx, k, v); err != nil {
			t.Fatal(err)
		}
	}
	claims, bad, err := AllClaims(ctx, st.Claims)
	if err != nil {
		t.Fatal(err)
	}
	if len(claims) != 1 || claims[good] != "A1" {
		t.Errorf("claims %v", claims)
	}
	if len(bad) != 2 || bad[0].Bucket != fleet.ClaimsBucket || !errors.Is(bad[0].Err, ErrBadValue) {
		t.Fatalf("bad values %v", bad)
	}
	if keys := map[string]bool{bad[0].Key: true, bad[1].Key: true}; !keys[fleet.ClaimKey(junk)] || !keys["x"] {
		t.Errorf("bad keys %v", keys)
	}

	c := fleet.Conflict{Ticket: good, Holder: fleet.Claim{Terminal: "A1", Amount: 30_00}, Other: fleet.Claim{Terminal: "B", Amount: 30_00, Unconfirmed: true}}
	cv, _ := json.Marshal(c)
	for k, v := range map[string][]byte{fleet.ConflictEntryKey("A1", "B", good): cv, fleet.ConflictKey("B", good): cv,
		fleet.ConflictEntryKey("C", "B", good): cv, fleet.ConflictKey("A1", junk): ack} {
		if _, err := st.Conflicts.Create(ctx, k, v); err != nil {
			t.Fatal(err)
		}
	}
	cs, bad, err := ReadConflicts(ctx, st.Conflicts, ">", 0)
	if err != nil || len(cs) != 2 || len(bad) != 2 {
		t.Fatalf("conflicts %v, bad %v, %v", cs, bad, err)
	}
	// The service answers a terminal with its readable conflicts.
	if cs, err := Conflicts(ctx, st.Conflicts, "c.A1.>", 0); err != nil || len(cs) != 1 {
		t.Fatalf("A1's conflicts %v %v", cs, err)
	}

	for k, v := range map[string][]byte{StatusKey(7001): statusFile(t, 7001), StatusKey(7002): statusFile(t, 7001),
		StatusKey(7003): ack, "r.07004": statusFile(t, 7004)} {
		if _, err := st.Status.Put(ctx, k, v); err != nil {
			t.Fatal(err)
		}
	}
	bad, err = CheckStatusBucket(ctx, st.Status)
	if err != nil || len(bad) != 3 {
		t.Fatalf("status bad values %v %v", bad, err)
	}
	for _, b := range bad {
		if b.Bucket != fleet.StatusBucket || b.Key == StatusKey(7001) {
			t.Errorf("status bad value %v", b)
		}
	}
}

func TestEntryReaders(t *testing.T) {
	id := codes.TicketID{Block: 42, Pack: 28, Position: 2}
	claim, _ := json.Marshal(fleet.Claim{Terminal: "A1", Amount: 30_00})
	if got, c, err := ClaimEntry(fleet.ClaimKey(id), claim); err != nil || got != id || c.Terminal != "A1" {
		t.Errorf("claim entry: %v %v %v", got, c, err)
	}
	for _, k := range []string{"t.42.28", "t.42.28.2.1", "t.042.28.2", "t.42.28.2x", "u.42.28.2", "t.0.0.0"} {
		if _, _, err := ClaimEntry(k, claim); err == nil {
			t.Errorf("claim key %q accepted", k)
		}
	}
	if _, _, err := ClaimEntry(fleet.ClaimKey(id), []byte(`{"stream":"JOURNAL","seq":7}`)); !errors.Is(err, fleet.ErrMessage) {
		t.Errorf("acknowledgement as a claim: %v", err)
	}
	c := fleet.Conflict{Ticket: id, Holder: fleet.Claim{Terminal: "A1", Amount: 1}, Other: fleet.Claim{Terminal: "B", Amount: 1, Unconfirmed: true}}
	cv, _ := json.Marshal(c)
	for k, ok := range map[string]bool{fleet.ConflictEntryKey("A1", "B", id): true, fleet.ConflictEntryKey("B", "A1", id): true,
		fleet.ConflictKey("A1", id): true, fleet.ConflictKey("B", id): true, fleet.ConflictKey("C", id): false,
		fleet.ConflictEntryKey("A1", "C", id): false, fleet.ConflictKey("A1", codes.TicketID{Block: 42, Pack: 28, Position: 3}): false} {
		if _, err := ConflictEntry(k, cv); (err == nil) != ok {
			t.Errorf("conflict under %s: %v", k, err)
		}
	}
	if s, err := StatusEntry(StatusKey(7001), statusFile(t, 7001)); err != nil || s.Retailer != 7001 {
		t.Errorf("status entry: %v", err)
	}
}
