package fleet

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/packterm/pos/validate/journal"
)

// batch is how many records one publishing round reads from the journal.
const batch = 256

// errStop ends a journal read early.
var errStop = errors.New("stop")

// Run is the client's worker: whenever woken (Notify, reconnect) and every Retry, it
// publishes the records the stream has not acknowledged yet, in order, claims the
// journal's unconfirmed payouts, and writes into the journal every conflict the fleet
// reports for this terminal. It returns when ctx is done.
func (c *Client) Run(ctx context.Context) error {
	if c.o.Journal == nil {
		return errors.New("fleet: run: no journal")
	}
	for {
		if c.Online() {
			if err := c.Sync(ctx); err != nil && ctx.Err() == nil {
				c.log.Warn("fleet: sync", "err", err)
			}
			if c.o.Status != nil {
				if err := c.syncStatus(ctx); err != nil && ctx.Err() == nil {
					c.log.Warn("fleet: status list", "err", err)
				}
			}
		}
		select {
		case <-ctx.Done():
			return nil
		case <-c.notify:
		case <-c.clock.After(c.o.Retry):
		}
	}
}

// Sync does one round of Run's work until the journal is all published, or the first
// failure.
func (c *Client) Sync(ctx context.Context) error {
	if c.clockDue() {
		c.headDue.Store(true)
	}
	if c.headDue.Swap(false) { // once a connection, before its first publication
		if err := c.checkRestored(ctx); err != nil {
			c.headDue.Store(true)
			return err
		}
		if _, err := c.ClockSkew(); err != nil {
			c.headDue.Store(true) // the fleet's time again next round: the fault clears once set right
		}
	}
	if err := c.publishAll(ctx); err != nil {
		return err
	}
	if err := c.reconcileAll(ctx); err != nil {
		return err
	}
	n, err := c.recordConflicts(ctx)
	if err != nil || n == 0 {
		return err
	}
	return c.publishAll(ctx) // the conflict records just written
}

func (c *Client) publishAll(ctx context.Context) error {
	for {
		n, err := c.publishRound(ctx)
		if err != nil || n < batch {
			return err
		}
	}
}

// Acked is the last journal record the stream acknowledged.
func (c *Client) Acked() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.state.Acked
}

// publishRound publishes up to batch records after the acknowledged one.
func (c *Client) publishRound(ctx context.Context) (int, error) {
	c.mu.Lock()
	if head, _ := c.o.Journal.Head(); head < c.state.Acked || head < c.state.Reconciled {
		// A state file from another journal (replaced or restored): start over; the
		// stream and the report drop what was already published.
		c.log.Warn("fleet: state ahead of the journal, publishing again", "acked", c.state.Acked, "head", head)
		c.state.Acked, c.state.Reconciled = 0, 0
	}
	from := c.state.Acked + 1
	c.mu.Unlock()
	var recs []journal.Record
	err := c.o.Journal.EachFrom(from, func(r journal.Record) error {
		recs = append(recs, r)
		if len(recs) == batch {
			return errStop
		}
		return nil
	})
	if err != nil && !errors.Is(err, errStop) {
		return 0, fmt.Errorf("fleet: reading the journal: %w", err)
	}
	acked, err := c.publish(ctx, recs)
	c.mu.Lock()
	defer c.mu.Unlock()
	if acked > c.state.Acked {
		c.state.Acked = acked
		if serr := c.state.save(); serr != nil && err == nil {
			err = serr
		}
	}
	if err != nil {
		return 0, err
	}
	return len(recs), nil
}

// reconcileAll claims, in order, every unconfirmed payout after the last reconciled
// record. It is apart from publishing: a claim service that does not answer does not
// hold the journal back from the stream.
func (c *Client) reconcileAll(ctx context.Context) error {
	for {
		c.mu.Lock()
		from := c.state.Reconciled + 1
		c.mu.Unlock()
		var pending []journal.Record
		var last uint64
		err := c.o.Journal.EachFrom(from, func(r journal.Record) error {
			last = r.Seq
			if r.Unconfirmed() {
				if pending = append(pending, r); len(pending) == batch {
					return errStop
				}
			}
			return nil
		})
		if err != nil && !errors.Is(err, errStop) {
			return fmt.Errorf("fleet: reading the journal: %w", err)
		}
		for _, r := range pending {
			if err := c.reconcile(ctx, r); err != nil {
				return err
			}
		}
		c.mu.Lock()
		var serr error
		if last > c.state.Reconciled {
			c.state.Reconciled = last
			serr = c.state.save()
		}
		c.mu.Unlock()
		if serr != nil || len(pending) < batch {
			return serr
		}
	}
}

// publish sends recs asynchronously and returns the last sequence number acknowledged
// with every one before it.
func (c *Client) publish(ctx context.Context, recs []journal.Record) (uint64, error) {
	if len(recs) == 0 {
		return 0, nil
	}
	futures := make([]jetstream.PubAckFuture, 0, len(recs))
	epoch, err := c.o.Journal.Epoch()
	if err != nil {
		return 0, fmt.Errorf("fleet: the journal's epoch: %w", err)
	}
	var buf []byte
	for i := range recs {
		r := &recs[i]
		buf = journal.AppendRecord(buf[:0], r)
		m := &nats.Msg{Subject: JournalSubject(r), Data: append([]byte(nil), buf...), Header: nats.Header{}}
		m.Header.Set(jetstream.MsgIDHeader, MsgID(r))
		if epoch != "" {
			m.Header.Set(EpochHeader, epoch)
		}
		var f jetstream.PubAckFuture
		if f, err = c.js.PublishMsgAsync(m); err != nil {
			break
		}
		futures = append(futures, f)
	}
	var acked uint64
	timeout := c.clock.After(c.o.Timeout + time.Duration(len(futures))*time.Millisecond)
	for i, f := range futures {
		select {
		case <-f.Ok():
			if i == 0 || acked == recs[i-1].Seq {
				acked = recs[i].Seq
			}
			continue
		case e := <-f.Err():
			if err == nil {
				err = e
			}
		case <-timeout:
			if err == nil {
				err = fmt.Errorf("%w (publish acknowledgements late)", ErrOffline)
			}
		case <-ctx.Done():
			return acked, ctx.Err()
		}
		break
	}
	if err != nil {
		return acked, fmt.Errorf("fleet: publishing the journal: %w", err)
	}
	return acked, nil
}

// Unclaimed is the total, in cents, of the journal's unconfirmed payouts that reconciliation
// has not yet claimed fleet-wide (after the last reconciled record): what this terminal has
// paid on its own word since the fleet was last in reach.
func (c *Client) Unclaimed() (int64, error) {
	c.mu.Lock()
	from := c.state.Reconciled + 1
	c.mu.Unlock()
	var sum int64
	err := c.o.Journal.EachFrom(from, func(r journal.Record) error {
		if r.Unconfirmed() {
			sum += r.Amount
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("fleet: unclaimed payouts: %w", err)
	}
	return sum, nil
}

// reconcile claims an unconfirmed payout, with the code its record holds, and marks it
// reconciled; the claim carries this journal's epoch. A refusal by another terminal's claim is recorded as a conflict by the
// service (for both terminals), which recordConflicts then writes into the journal. A
// refusal of the claim itself (the code does not prove the ticket, the amount differs,
// the pack is not this retailer's) is final: the service recorded it for the operator,
// and the payout is marked reconciled; a transient one (rate limit, block unknown to
// the service yet) is retried at the next round.
func (c *Client) reconcile(ctx context.Context, r journal.Record) error {
	req := ClaimRequest{Ticket: r.Ticket, Code: r.CodeText(), Amount: r.Amount, At: r.Time, Unconfirmed: true, Record: r.ID()}
	_, err := c.claim(ctx, req) // with this journal's epoch, as the payout is this journal's
	var taken *TakenError
	var refused *RefusedError
	var before *PaidBeforeError
	switch {
	case err == nil:
		c.log.Info("fleet: offline payout confirmed", "record", r.ID(), "ticket", r.Ticket.String())
	case errors.As(err, &taken):
		c.log.Error("fleet: conflict: offline payout already claimed elsewhere", "record", r.ID(),
			"ticket", r.Ticket.String(), "holder", taken.Holder.Terminal)
	case errors.As(err, &before):
		// Paid offline by a journal that did not know it had been paid under an earlier
		// one (a wiped terminal: a reset journal pays nothing offline). Settlement flags
		// the second payout (conflict).
		c.log.Error("fleet: offline payout of a ticket this terminal paid under an earlier journal", "record", r.ID(),
			"ticket", r.Ticket.String(), "claimed at", before.Holder.At.UTC().Format(time.RFC3339), "earlier record", before.Holder.Record)
	case errors.As(err, &refused) && !Transient(refused.Reason):
		c.log.Error("fleet: offline payout refused by the claim service", "record", r.ID(),
			"ticket", r.Ticket.String(), "reason", refused.Reason)
	default:
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.state.Reconciled = r.Seq
	return c.state.save()
}

// Conflicts asks the fleet for the conflicts that name this terminal.
func (c *Client) Conflicts(ctx context.Context) ([]Conflict, error) {
	ctx, cancel := context.WithTimeout(ctx, c.o.Timeout)
	defer cancel()
	msg, err := c.nc.RequestWithContext(ctx, ConflictsPrefix+c.o.Terminal, nil)
	if err != nil {
		return nil, fmt.Errorf("fleet: conflicts: %w (%v)", ErrOffline, err)
	}
	if e := msg.Header.Get(ErrorHeader); e != "" {
		return nil, fmt.Errorf("fleet: conflicts: %w (service: %.200s)", ErrOffline, e)
	}
	return DecodeConflicts(msg.Data)
}

// recordConflicts writes a KindConflict record for each conflict not yet recorded and
// returns how many it wrote.
func (c *Client) recordConflicts(ctx context.Context) (int, error) {
	cs, err := c.Conflicts(ctx)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, cf := range cs {
		here, other, reason := cf.Holder, cf.Other, journal.ReasonPaidOfflineElsewhere
		if cf.Other.Terminal == c.o.Terminal {
			here, other, reason = cf.Other, cf.Holder, journal.ReasonPaidElsewhere
		}
		key := ConflictKey(other.Terminal, cf.Ticket)
		c.mu.Lock()
		done := c.state.Recorded[key]
		c.mu.Unlock()
		if done {
			continue
		}
		detail := fmt.Sprintf("also paid at terminal %s (%s, %s, %s); here %s",
			other.Terminal, recordWord(other.Record), other.At.UTC().Format(time.RFC3339), claimWord(other), recordWord(here.Record))
		if _, err := c.o.Journal.Append(journal.Entry{Kind: journal.KindConflict, Ticket: cf.Ticket,
			Amount: here.Amount, Reason: reason, Detail: detail}); err != nil { // the journal sets the game
			return n, fmt.Errorf("fleet: recording conflict on %v: %w", cf.Ticket, err)
		}
		c.log.Error("fleet: conflict recorded", "ticket", cf.Ticket.String(), "other", other.Terminal)
		c.mu.Lock()
		c.state.Recorded[key] = true
		err := c.state.save()
		c.mu.Unlock()
		n++
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

func claimWord(c Claim) string {
	if c.Unconfirmed {
		return "paid offline"
	}
	return "claimed online"
}

func recordWord(id string) string {
	if id == "" {
		return "claimed before paying"
	}
	return "record " + id
}
