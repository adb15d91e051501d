package server

import (
	"context"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// kvStream is the name of the stream that holds bucket's entries.
func kvStream(bucket string) string { return "KV_" + bucket }

// WriteOnceConfig is the stream configuration of a write-once bucket: a key's first
// message is its value for ever. It is what jetstream.CreateKeyValue sets for a bucket
// of one version (subjects $KV.<bucket>.>, direct gets, discard new, deny delete, the
// same duplicate window and limits), with JetStream itself refusing any later message on
// a key's subject:
//
//   - MaxMsgsPerSubject 1 with Discard New and DiscardNewPerSubject: a second message on
//     the subject (a Put, a Delete's marker, a plain publish, an acknowledgement sent
//     there as a reply) is refused, "maximum messages per subject exceeded"; Create of a
//     present key still fails with ErrKeyExists (the expected-sequence check comes first);
//   - AllowRollup false: a Purge (a roll-up marker) is refused;
//   - DenyDelete and DenyPurge: the stream API's message delete and purge are refused.
//     Neither can be turned off by a later update (the server refuses that).
func WriteOnceConfig(bucket, description string, maxValue int32, replicas int) jetstream.StreamConfig {
	if replicas <= 0 {
		replicas = 1
	}
	return jetstream.StreamConfig{
		Name:                 kvStream(bucket),
		Description:          description,
		Subjects:             []string{"$KV." + bucket + ".>"},
		MaxMsgsPerSubject:    1,
		Discard:              jetstream.DiscardNew,
		DiscardNewPerSubject: true,
		AllowRollup:          false,
		DenyDelete:           true,
		DenyPurge:            true,
		AllowDirect:          true,
		MaxMsgs:              -1,
		MaxBytes:             -1,
		MaxConsumers:         -1,
		MaxMsgSize:           maxValue,
		Duplicates:           2 * time.Minute,
		Storage:              jetstream.FileStorage,
		Replicas:             replicas,
		Retention:            jetstream.LimitsPolicy,
	}
}

// writeOnceKV creates the write-once bucket, or updates the stream of one that exists:
// a bucket made by jetstream.CreateKeyValue (History 1: before the fleet made its
// buckets write-once) differs only in AllowRollup, DenyPurge and DiscardNewPerSubject,
// which the server lets an update set. It is then bound as a KeyValue.
func writeOnceKV(ctx context.Context, js jetstream.JetStream, bucket, description string, maxValue int32, replicas int) (jetstream.KeyValue, error) {
	if _, err := js.CreateOrUpdateStream(ctx, WriteOnceConfig(bucket, description, maxValue, replicas)); err != nil {
		return nil, fmt.Errorf("fleet: %s bucket: %w", bucket, err)
	}
	kv, err := js.KeyValue(ctx, bucket)
	if err != nil {
		return nil, fmt.Errorf("fleet: %s bucket: %w", bucket, err)
	}
	return kv, nil
}
