package server

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	natsserver "github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// jetStreamServer is an embedded JetStream server alone (no accounts), and a client on it.
func jetStreamServer(t *testing.T) jetstream.JetStream {
	t.Helper()
	ns, err := natsserver.NewServer(&natsserver.Options{Host: "127.0.0.1", Port: natsserver.RANDOM_PORT,
		JetStream: true, StoreDir: filepath.Join(t.TempDir(), "js"), NoLog: true, NoSigs: true})
	if err != nil {
		t.Fatal(err)
	}
	ns.Start()
	t.Cleanup(func() { ns.Shutdown(); ns.WaitForShutdown() })
	if !ns.ReadyForConnections(10 * time.Second) {
		t.Fatal("server not ready")
	}
	nc, err := nats.Connect(ns.ClientURL())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	return js
}

// readAll is readStream over stream, with the subjects it delivered.
func readAll(ctx context.Context, js jetstream.JetStream, stream string) ([]string, error) {
	var got []string
	_, err := readStream(ctx, js, stream, "test", func(subject string, _ []byte, _ time.Time) error {
		got = append(got, subject)
		return nil
	})
	return got, err
}

// A stream whose last messages were removed keeps its last sequence: the read ends at the
// last message present (nothing pending after it), not waiting for the removed ones. Before,
// it fetched until its context ended: posctl's report, with no deadline, hung for good.
func TestReadStreamEndsWhereTheMessagesEnd(t *testing.T) {
	js := jetStreamServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Second) // under stallFetches × fetchWait
	defer cancel()
	s, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: "T", Subjects: []string{"t.>"}})
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 5; i++ {
		if _, err := js.Publish(ctx, fmt.Sprintf("t.%d", i), []byte("x")); err != nil {
			t.Fatal(err)
		}
	}
	for _, seq := range []uint64{5, 4, 2} {
		if err := s.DeleteMsg(ctx, seq); err != nil {
			t.Fatal(err)
		}
	}
	got, err := readAll(ctx, js, "T")
	if err != nil {
		t.Fatalf("read: %v (got %v)", err, got)
	}
	if fmt.Sprint(got) != "[t.1 t.3]" {
		t.Fatalf("read %v, want [t.1 t.3]", got)
	}
}

// A consumer that delivers nothing before the end fails the read with ErrStalled after
// stallFetches empty fetches, under a context without a deadline.
func TestReadStreamStalls(t *testing.T) {
	js := &stalledJS{stream: &stalledStream{}}
	got, err := readAll(context.Background(), js, "T")
	if !errors.Is(err, ErrStalled) {
		t.Fatalf("read: %v (got %v), want ErrStalled", err, got)
	}
	if js.stream.fetches != stallFetches {
		t.Fatalf("%d fetches, want %d", js.stream.fetches, stallFetches)
	}
}

// stalledJS serves one stream that says it holds messages and whose consumer delivers
// none (each fetch ends at once, empty). Only what readStream calls is implemented.
type stalledJS struct {
	jetstream.JetStream
	stream *stalledStream
}

func (j *stalledJS) Stream(context.Context, string) (jetstream.Stream, error) { return j.stream, nil }

type stalledStream struct {
	jetstream.Stream
	fetches int
}

// stalledConsumer is its consumer.
type stalledConsumer struct {
	jetstream.Consumer
	s *stalledStream
}

func (s *stalledStream) Info(context.Context, ...jetstream.StreamInfoOpt) (*jetstream.StreamInfo, error) {
	return &jetstream.StreamInfo{State: jetstream.StreamState{Msgs: 3, LastSeq: 3}}, nil
}

func (s *stalledStream) OrderedConsumer(context.Context, jetstream.OrderedConsumerConfig) (jetstream.Consumer, error) {
	return stalledConsumer{s: s}, nil
}

func (c stalledConsumer) Fetch(int, ...jetstream.FetchOpt) (jetstream.MessageBatch, error) {
	c.s.fetches++
	return emptyBatch{}, nil
}

type emptyBatch struct{}

func (emptyBatch) Messages() <-chan jetstream.Msg {
	ch := make(chan jetstream.Msg)
	close(ch)
	return ch
}

func (emptyBatch) Error() error { return jetstream.ErrNoMessages }
