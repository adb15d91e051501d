package server

import (
	"context"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/packterm/pos/device/fleet"
)

// DuplicateWindow is how long the journal stream remembers message ids: a record
// published twice within it is stored once. Past it the report still counts each
// record id once.
const DuplicateWindow = 24 * time.Hour

// Stores are the fleet's stream and buckets.
type Stores struct {
	Journal   jetstream.Stream
	Claims    jetstream.KeyValue
	Conflicts jetstream.KeyValue
	Status    jetstream.KeyValue
	// Refusals is the record of refused claims (EnsureStores only: the operator's tools
	// read it with ReadRefusals).
	Refusals jetstream.Stream
}

// EnsureStores creates (or updates) the journal stream and the buckets, each with
// replicas copies (1 on a single node, 3 on a cluster), file storage; and the refusals
// stream, where the claim service records every claim it refuses.
func EnsureStores(ctx context.Context, js jetstream.JetStream, replicas int) (*Stores, error) {
	var s Stores
	var err error
	s.Journal, err = js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name: fleet.JournalStream, Subjects: []string{"journal.>"}, Storage: jetstream.FileStorage,
		Replicas: replicas, Duplicates: DuplicateWindow, MaxMsgSize: 4 << 10,
		DenyDelete: true, DenyPurge: true, Retention: jetstream.LimitsPolicy,
	})
	if err != nil {
		return nil, fmt.Errorf("fleet: journal stream: %w", err)
	}
	s.Refusals, err = js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name: fleet.RefusalStream, Subjects: []string{fleet.RefusalPrefix + ">"}, Storage: jetstream.FileStorage,
		Replicas: replicas, MaxMsgSize: 4 << 10, DenyDelete: true, DenyPurge: true, Retention: jetstream.LimitsPolicy,
	})
	if err != nil {
		return nil, fmt.Errorf("fleet: refusals stream: %w", err)
	}
	if s.Claims, err = writeOnceKV(ctx, js, fleet.ClaimsBucket, "one claim per paid ticket, written once", 4<<10, replicas); err != nil {
		return nil, err
	}
	if s.Conflicts, err = writeOnceKV(ctx, js, fleet.ConflictBucket, "tickets paid at two terminals, written once", 4<<10, replicas); err != nil {
		return nil, err
	}
	s.Status, err = js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: fleet.StatusBucket,
		Description: "signed pack status lists by retailer", History: 1, Storage: jetstream.FileStorage,
		Replicas: replicas, MaxValueSize: 1<<20 - 1<<10})
	if err != nil {
		return nil, fmt.Errorf("fleet: %s bucket: %w", fleet.StatusBucket, err)
	}
	return &s, nil
}

// OpenStores binds the existing stream and buckets (operator tools: nothing is created
// or reconfigured).
func OpenStores(ctx context.Context, js jetstream.JetStream) (*Stores, error) {
	var s Stores
	var err error
	if s.Journal, err = js.Stream(ctx, fleet.JournalStream); err != nil {
		return nil, fmt.Errorf("fleet: journal stream: %w", err)
	}
	for _, b := range []struct {
		name string
		kv   *jetstream.KeyValue
	}{{fleet.ClaimsBucket, &s.Claims}, {fleet.ConflictBucket, &s.Conflicts}, {fleet.StatusBucket, &s.Status}} {
		if *b.kv, err = js.KeyValue(ctx, b.name); err != nil {
			return nil, fmt.Errorf("fleet: %s bucket: %w", b.name, err)
		}
	}
	return &s, nil
}
