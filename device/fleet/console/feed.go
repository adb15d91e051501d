package console

import (
	"context"
	"errors"
	"fmt"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/device/fleet/server"
	"github.com/packterm/pos/validate/ledger"
)

// Feed loads the fleet's facts into the console's model and keeps it up to date until
// ctx ends: ordered consumers of the journal and refusals streams from where the load
// stopped, and watchers of the claims, conflicts and status buckets. It only reads.
// ready, if not nil, is called once the facts are loaded.
func (c *Console) Feed(ctx context.Context, js jetstream.JetStream, st *server.Stores, ready func()) error {
	watch := func(kv jetstream.KeyValue, opts ...jetstream.WatchOpt) (jetstream.KeyWatcher, error) {
		w, err := kv.WatchAll(ctx, opts...)
		if err != nil {
			return nil, fmt.Errorf("console: watching %s: %w", kv.Bucket(), err)
		}
		return w, nil
	}
	claims, err := watch(st.Claims, jetstream.UpdatesOnly())
	if err != nil {
		return err
	}
	defer claims.Stop()
	conflicts, err := watch(st.Conflicts, jetstream.UpdatesOnly())
	if err != nil {
		return err
	}
	defer conflicts.Stop()
	status, err := watch(st.Status)
	if err != nil {
		return err
	}
	defer status.Stop()
	refTo := lastSeq(ctx, js, fleet.RefusalStream)
	f, err := server.ReadFacts(ctx, js, st)
	if err != nil {
		return fmt.Errorf("console: %w", err)
	}
	c.model.Load(f)
	c.log.Info("console: fleet facts loaded", "records", len(f.Records), "refusals", len(f.Refusals), "unread", f.Unread())
	stopJ, err := c.follow(ctx, js, fleet.JournalStream, f.JournalTo, c.onJournal)
	if err != nil {
		return err
	}
	defer stopJ()
	if stopR, err := c.follow(ctx, js, fleet.RefusalStream, refTo, c.onRefusal); err == nil {
		defer stopR()
	} else if !errors.Is(err, jetstream.ErrStreamNotFound) {
		return err
	}
	if ready != nil {
		ready()
	}
	for {
		select {
		case <-ctx.Done():
			return nil
		case e := <-claims.Updates():
			if e != nil && e.Operation() == jetstream.KeyValuePut {
				if id, cl, err := server.ClaimEntry(e.Key(), e.Value()); err == nil {
					c.model.AddClaim(id, cl.Terminal)
				} else {
					c.model.AddUnread()
				}
			}
		case e := <-conflicts.Updates():
			if e != nil && e.Operation() == jetstream.KeyValuePut {
				if cf, err := server.ConflictEntry(e.Key(), e.Value()); err == nil {
					c.model.AddConflict(cf)
				} else {
					c.model.AddUnread()
				}
			}
		case e := <-status.Updates():
			if e != nil && e.Operation() == jetstream.KeyValuePut {
				c.onStatus(e.Key(), e.Value())
			}
		}
	}
}

// lastSeq is stream's last sequence (0: empty or none).
func lastSeq(ctx context.Context, js jetstream.JetStream, stream string) uint64 {
	s, err := js.Stream(ctx, stream)
	if err != nil {
		return 0
	}
	info, err := s.Info(ctx)
	if err != nil {
		return 0
	}
	return info.State.LastSeq
}

// follow hands each message of stream after sequence after to each, as it arrives.
func (c *Console) follow(ctx context.Context, js jetstream.JetStream, stream string, after uint64, each func(jetstream.Msg)) (func(), error) {
	s, err := js.Stream(ctx, stream)
	if err != nil {
		return nil, fmt.Errorf("console: %s stream: %w", stream, err)
	}
	cfg := jetstream.OrderedConsumerConfig{}
	if after > 0 {
		cfg.DeliverPolicy, cfg.OptStartSeq = jetstream.DeliverByStartSequencePolicy, after+1
	}
	cons, err := s.OrderedConsumer(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("console: following %s: %w", stream, err)
	}
	cc, err := cons.Consume(each)
	if err != nil {
		return nil, fmt.Errorf("console: following %s: %w", stream, err)
	}
	return cc.Stop, nil
}

func (c *Console) onJournal(msg jetstream.Msg) {
	md, err := msg.Metadata()
	if err != nil {
		return
	}
	r, err := fleet.DecodeJournalMsg(msg.Subject(), msg.Data())
	if err != nil {
		c.model.AddUnread()
		c.log.Warn("console: journal message refused", "seq", md.Sequence.Stream, "err", err)
		return
	}
	if c.model.AddRecord(r, md.Timestamp) {
		c.hub.publish(Event{Terminal: r.Terminal, Seq: r.Seq, Kind: r.Kind.String(), Amount: r.Amount})
	}
}

func (c *Console) onRefusal(msg jetstream.Msg) {
	r, err := fleet.DecodeRefusal(msg.Data())
	if err == nil && fleet.RefusalPrefix+r.Terminal != msg.Subject() {
		err = fleet.ErrMessage
	}
	if err != nil {
		c.model.AddUnread()
		return
	}
	c.model.AddRefusal(r)
	c.hub.publish(Event{Terminal: r.Terminal, Kind: "refusal"})
}

// onStatus takes an entry of the status bucket; with the operator's keys (Options.Trust)
// its signature is checked as the claim service checks it.
func (c *Console) onStatus(key string, value []byte) {
	s, err := server.StatusEntry(key, value)
	if err != nil {
		c.model.AddUnread()
		return
	}
	verified := false
	if c.o.Trust != nil {
		_, err := ledger.ParseStatus(value, c.o.Trust)
		verified = err == nil
	}
	c.model.SetStatus(s, c.o.Trust != nil, verified)
	c.hub.publish(Event{Kind: "status"})
}
