package server

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jonboulle/clockwork"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/ledger"
)

// ServiceOptions configure the claim service.
type ServiceOptions struct {
	// Registry (required): each terminal's retailer; status lists go only to a
	// terminal's own retailer, claims are checked against its deliveries.
	Registry *Registry
	// Ledgers (required) answer the claims' codes: the operator's block ledgers
	// (LoadLedgers), verified against the operator's keys.
	Ledgers LedgerSource
	// Trust is the operator's keys the status lists are verified with (required unless
	// Status is given).
	Trust *ledger.TrustStore
	// Status gives the retailers' lists; default the status bucket's, verified with
	// Trust and kept StatusMaxAge (NewStatusLists).
	Status       StatusSource
	StatusMaxAge time.Duration
	// ClaimRate and ClaimBurst limit each terminal's claims (a token bucket: Burst at
	// once, Rate per second sustained); 0: DefaultClaimRate, DefaultClaimBurst.
	ClaimRate  float64
	ClaimBurst int

	// Witness, when set, is asked before each claim: a terminal whose published journal
	// failed it is refused journal-unverified (the caller runs it: Witness.Run).
	Witness *Witness

	// Observer, when set, sees each claim's answer and latency and each journal record
	// the terminals publish (metrics.Fleet).
	Observer ServiceObserver

	// StaleAfter: a request that waited longer than this for a handler is dropped
	// unanswered (its terminal gave up: the client's timeout, 2 s by default); default
	// DefaultStaleAfter, negative: never.
	StaleAfter time.Duration

	// RequestRate and RequestBurst limit each terminal's other requests (conflicts,
	// status lists) as ClaimRate and ClaimBurst its claims; 0: DefaultRequestRate,
	// DefaultRequestBurst.
	RequestRate  float64
	RequestBurst int
	// RecordRate and RecordBurst limit each terminal's journal records taken into the
	// stream (the journal's intake); 0: DefaultRecordRate, DefaultRecordBurst.
	RecordRate  float64
	RecordBurst int
	// Queue bounds one terminal's requests waiting for a handler (default DefaultQueue;
	// its records: 512): what a terminal sends beyond it is dropped unanswered and counted
	// against it.
	Queue int

	// Requests, when set, is the connection the service takes the terminals' requests on
	// (and answers them): a connection of their own keeps the stores' round trips, on
	// the service's main connection, from queueing behind a flood of requests.
	Requests *nats.Conn

	Workers int             // concurrent handlers, all kinds of request together (default 16)
	Ready   chan<- struct{} // closed once Run's subscriptions are in place (tests, posctl)
	Clock   clockwork.Clock
	Logger  *slog.Logger
}

// ServiceObserver sees the service's work (device/metrics: the service's metrics).
// Calls are made on the handlers' goroutines and must not block.
type ServiceObserver interface {
	ClaimDecided(terminal, result, reason string, d time.Duration)
	JournalRecord(terminal string)
	// RequestDropped: terminal's request of kind (claim, conflicts, status) was dropped,
	// its queue full (a flood).
	RequestDropped(terminal, kind string)
	// RequestTaken: a handler takes terminal's request of kind after it waited so long
	// in the fair queue.
	RequestTaken(terminal, kind string, waited time.Duration)
}

// Service answers the terminals' requests: claims, conflicts and status lists. Several
// may run (one per node, say): they share the work as a queue group, and the claims
// bucket's create-only write decides every race whichever instance handles it.
type Service struct {
	nc    *nats.Conn
	js    jetstream.JetStream
	st    *Stores
	o     ServiceOptions
	check Checker
	limit *Limiter // claims per terminal
	// requests limits the other requests per terminal.
	requests *Limiter
	records  *Limiter // journal records per terminal
	// floodLog paces the flood's log line; toldLimited the rate-limited answers.
	floodLog, toldLimited *onceEvery                   // a rate-limited terminal is answered so at most once a second
	reg                   atomic.Pointer[registryView] // the registry in force (SetRegistry replaces it)
}

// registryView is a registry and its terminals' retailers by id.
type registryView struct {
	reg       *Registry
	retailers map[string]uint32
}

func newRegistryView(r *Registry) *registryView {
	v := &registryView{reg: r, retailers: map[string]uint32{}}
	if r != nil {
		for _, t := range r.Terminals {
			v.retailers[t.ID] = t.Retailer
		}
	}
	return v
}

// SetRegistry puts r in force for the claims and status requests that follow: a
// terminal added is answered, one removed is refused (unregistered). A nil r is ignored.
func (s *Service) SetRegistry(r *Registry) {
	if r != nil {
		s.reg.Store(newRegistryView(r))
	}
}

// registry is the registry in force (nil: none given).
func (s *Service) registry() *Registry { return s.reg.Load().reg }

// NewService prepares a service on an operator connection.
func NewService(nc *nats.Conn, st *Stores, o ServiceOptions) *Service {
	if o.Workers <= 0 {
		o.Workers = 16
	}
	if o.Queue <= 0 {
		o.Queue = DefaultQueue
	}
	if o.StaleAfter == 0 {
		o.StaleAfter = DefaultStaleAfter
	}
	if o.Clock == nil {
		o.Clock = clockwork.NewRealClock()
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	s := &Service{nc: nc, st: st, o: o, limit: NewLimiter(o.ClaimRate, o.ClaimBurst, o.Clock),
		requests: NewLimiter(cmp.Or(o.RequestRate, DefaultRequestRate), cmp.Or(o.RequestBurst, DefaultRequestBurst), o.Clock),
		records:  NewLimiter(cmp.Or(o.RecordRate, DefaultRecordRate), cmp.Or(o.RecordBurst, DefaultRecordBurst), o.Clock),
		floodLog: newOnceEvery(RateLimitedRecordEvery, o.Clock), toldLimited: newOnceEvery(time.Second, o.Clock)}
	s.js, _ = jetstream.New(nc) // fails only on bad options
	s.reg.Store(newRegistryView(o.Registry))
	status := o.Status
	if status == nil && o.Trust != nil && st != nil {
		status = NewStatusLists(st.Status, o.Trust, o.StatusMaxAge, o.Clock)
	}
	s.check = Checker{Retailer: func(id string) (uint32, bool) { r, ok := s.reg.Load().retailers[id]; return r, ok },
		Ledgers: o.Ledgers, Status: status, Unverified: o.Witness.Unverified}
	return s
}

// DefaultQueue is ServiceOptions.Queue's default.
const DefaultQueue = 16

// DefaultStaleAfter is ServiceOptions.StaleAfter's default: the terminals' claim timeout.
const DefaultStaleAfter = 2 * time.Second

// ErrServiceConfig: the service lacks what it decides claims with (fail closed).
var ErrServiceConfig = errors.New("fleet service: incomplete configuration")

// Run serves until ctx is done, then drains its subscriptions. Every request waits in a
// fair queue (fairQueue: a queue per terminal, served in turn, one request of a terminal
// in work at a time), the records in one, every other kind in the other, for one of the
// queue's handlers (Workers, and half as many for the records): a terminal that
// floods the service delays no other terminal and fills only its own queue, whose
// overflow is dropped and counted against it (Observer.RequestDropped, a log line per
// RateLimitedRecordEvery).
func (s *Service) Run(ctx context.Context) error {
	switch {
	case s.registry() == nil:
		return fmt.Errorf("%w: no registry", ErrServiceConfig)
	case s.check.Ledgers == nil:
		return fmt.Errorf("%w: no ledgers", ErrServiceConfig)
	case s.check.Status == nil:
		return fmt.Errorf("%w: no operator key for the status lists", ErrServiceConfig)
	}
	ctx, cancel := context.WithCancel(ctx) // ends the workers however Run returns
	var subs []*nats.Subscription
	var workers sync.WaitGroup
	defer func() {
		for _, sub := range subs {
			sub.Drain()
		}
		cancel()
		workers.Wait()
	}()
	// Two fair queues: a terminal's records, caught up after a day out of reach, must not
	// hold its next claim back.
	requests, records := newFairQueue(s.o.Queue), newFairQueue(intakeQueue)
	rc := cmp.Or(s.o.Requests, s.nc)
	for _, k := range s.kinds() {
		queue := requests
		if k.prefix == IntakePrefix {
			queue = records
		}
		sub, err := rc.QueueSubscribe(k.subject(), "fleet-service", func(m *nats.Msg) {
			terminal := k.terminal(m.Subject)
			if !queue.push(terminal, queued{m: m, at: s.o.Clock.Now(), kind: k}) {
				s.dropped(terminal, k.name)
			}
		})
		if err != nil {
			return fmt.Errorf("fleet service: subscribe: %w", err)
		}
		// The handler only queues: the subscription's own buffer holds a burst of
		// every terminal together while the handler catches up.
		sub.SetPendingLimits(1<<16, 64<<20)
		subs = append(subs, sub)
	}
	for range s.o.Workers {
		workers.Add(1)
		go func() { defer workers.Done(); s.work(ctx, requests) }()
	}
	for range max(2, s.o.Workers/2) {
		workers.Add(1)
		go func() { defer workers.Done(); s.work(ctx, records) }()
	}
	if s.o.Observer != nil { // every instance sees every record (no queue group): a count, not a store
		sub, err := s.nc.Subscribe("journal.>", func(m *nats.Msg) {
			if t, _, ok := strings.Cut(strings.TrimPrefix(m.Subject, "journal."), "."); ok {
				s.o.Observer.JournalRecord(t)
			}
		})
		if err != nil {
			return fmt.Errorf("fleet service: subscribe: %w", err)
		}
		subs = append(subs, sub)
	}
	if err := rc.Flush(); err != nil {
		return fmt.Errorf("fleet service: %w", err)
	}
	if s.o.Ready != nil {
		close(s.o.Ready)
	}
	<-ctx.Done()
	return nil
}

// requestKind is one kind of request: its subject prefix (the terminal's id follows)
// and its handler.
type requestKind struct {
	name, prefix string
	fn           func(ctx context.Context, terminal string, m *nats.Msg)
}

// subject is what the kind subscribes to, terminal the requester named in a subject.
func (k requestKind) subject() string {
	if k.prefix == IntakePrefix {
		return IntakePrefix + "*.*"
	}
	return k.prefix + "*"
}

func (k requestKind) terminal(subject string) string {
	if k.prefix == IntakePrefix {
		return intakeTerminal(subject)
	}
	return strings.TrimPrefix(subject, k.prefix)
}

func (s *Service) kinds() []requestKind {
	return []requestKind{
		{"claim", fleet.ClaimPrefix, s.handleClaim},
		{"conflicts", fleet.ConflictsPrefix, s.limited(s.handleConflicts)},
		{"status", fleet.StatusPrefix, s.limited(s.handleStatus)},
		{"head", fleet.HeadPrefix, s.limited(s.handleHead)},
		{"journal", IntakePrefix, s.handleIntake},
	}
}

// limited is fn behind the terminal's request rate limit (requests other than claims,
// which have their own: Limiter): past it the request is answered with an error.
func (s *Service) limited(fn func(context.Context, string, *nats.Msg)) func(context.Context, string, *nats.Msg) {
	return func(ctx context.Context, terminal string, m *nats.Msg) {
		if ok, _, _ := s.requests.Allow(terminal); !ok {
			s.replyError(m, errors.New(fleet.RefusedRateLimited+": over the terminal's request rate limit"))
			return
		}
		fn(ctx, terminal, m)
	}
}

// dropped counts a request dropped for its terminal's full queue, and logs the terminal
// once per RateLimitedRecordEvery.
func (s *Service) dropped(terminal, kind string) {
	if s.o.Observer != nil {
		s.o.Observer.RequestDropped(terminal, kind)
	}
	if s.floodLog.allow(terminal) {
		s.o.Logger.Warn("fleet service: terminal floods the service, its requests dropped", "terminal", terminal, "kind", kind)
	}
}

// queued is a request taken off the subscription, when, and its kind.
type queued struct {
	m    *nats.Msg
	at   time.Time
	kind requestKind
}

// work handles queued requests until ctx ends. A request that waited longer than
// StaleAfter is dropped unanswered: its terminal has given up (its client's timeout) and
// asks again or pays within its offline limit; working through such requests after a
// stall (a leader election under load) only delays the fresh ones (a retry storm).
func (s *Service) work(ctx context.Context, queue *fairQueue) {
	for {
		q, done, ok := queue.pop(ctx)
		if !ok {
			return
		}
		terminal := q.kind.terminal(q.m.Subject)
		if waited := s.o.Clock.Since(q.at); s.o.StaleAfter > 0 && waited > s.o.StaleAfter {
			if s.o.Observer != nil && q.kind.prefix == fleet.ClaimPrefix {
				s.o.Observer.ClaimDecided(terminal, ResultStale, "", waited)
			}
		} else {
			if s.o.Observer != nil {
				s.o.Observer.RequestTaken(terminal, q.kind.name, s.o.Clock.Since(q.at))
			}
			q.kind.fn(ctx, terminal, q.m)
		}
		done()
	}
}

// ResultStale is the observer's result for a claim dropped unanswered (StaleAfter).
const ResultStale = "stale"

func (s *Service) reply(m *nats.Msg, v any) {
	b, _ := json.Marshal(v)
	if err := m.Respond(b); err != nil {
		s.o.Logger.Warn("fleet service: reply", "err", err)
	}
}

func (s *Service) replyError(m *nats.Msg, err error) {
	r := nats.NewMsg(m.Reply)
	r.Header.Set(fleet.ErrorHeader, err.Error())
	m.RespondMsg(r)
}

// opTimeout bounds one store operation (a leader election takes a few seconds).
const opTimeout = 5 * time.Second

// handleClaim: the terminal is the subject's token, which the server's permissions tie
// to the connection's nkey. The terminal's rate limit first, then the claim must prove
// its ticket (Checker: code, retailer's delivery, the ledger's prize); a refusal is
// recorded and answered. Then read the claim (claims are never deleted, so a present key
// is the truth even from a lagging replica), create-only write with the ledger's amount
// and the request's journal epoch, read the winner. The same terminal's claim is "yours"
// whatever its epoch: the holder's epoch goes back with it and the terminal decides
// (fleet.EarlierJournal: a claim from its earlier journal is a ticket it paid before).
func (s *Service) handleClaim(ctx context.Context, terminal string, m *nats.Msg) {
	start := s.o.Clock.Now()
	rep := s.decideClaim(ctx, terminal, m)
	// A terminal over its claim rate is told so at most once a second: answering a flood
	// claim by claim would spend on it what the other terminals wait for.
	if rep.Reason != fleet.RefusedRateLimited || s.toldLimited.allow(terminal) {
		s.reply(m, rep)
	}
	if s.o.Observer != nil {
		s.o.Observer.ClaimDecided(terminal, rep.Result, rep.Reason, s.o.Clock.Since(start))
	}
}

// decideClaim is handleClaim's answer.
func (s *Service) decideClaim(ctx context.Context, terminal string, m *nats.Msg) fleet.ClaimReply {
	if err := fleet.CheckTerminal(terminal); err != nil {
		return fleet.ClaimReply{Result: fleet.ResultError, Error: err.Error()}
	}
	ok, record, n := s.limit.Allow(terminal) // malformed requests count too
	req, err := fleet.DecodeClaimRequest(m.Data)
	if err != nil {
		s.o.Logger.Warn("fleet service: malformed claim request", "terminal", terminal, "err", err)
		req = fleet.ClaimRequest{}
	}
	ctx, cancel := context.WithTimeout(ctx, opTimeout)
	defer cancel()
	refusal := fleet.Refusal{Terminal: terminal, Ticket: req.Ticket, CodeGiven: req.Code != "", Amount: req.Amount,
		Unconfirmed: req.Unconfirmed, Record: req.Record}
	if record { // the flood's refusals not recorded yet
		r := refusal
		if ok { // not this claim's: the ones refused before it
			r = fleet.Refusal{Terminal: terminal}
		}
		r.At, r.Reason, r.Detail, r.Count = s.o.Clock.Now(), fleet.RefusedRateLimited, "over the terminal's claim rate limit", n
		s.recordRefusal(ctx, r)
	}
	if !ok {
		return fleet.ClaimReply{Result: fleet.ResultRefused, Reason: fleet.RefusedRateLimited, Error: "over the terminal's claim rate limit"}
	}
	if err != nil {
		return fleet.ClaimReply{Result: fleet.ResultError, Error: err.Error()}
	}
	v := s.check.Check(ctx, terminal, req)
	if v.Err != nil {
		s.o.Logger.Warn("fleet service: claim undecided", "terminal", terminal, "ticket", req.Ticket.String(), "err", v.Err)
		return fleet.ClaimReply{Result: fleet.ResultError, Error: v.Err.Error()}
	}
	if v.Reason != "" {
		refusal.At, refusal.Retailer, refusal.Reason, refusal.Detail, refusal.Lot = s.o.Clock.Now(), v.Retailer, v.Reason, v.Detail, v.Lot
		s.recordRefusal(ctx, refusal)
		return fleet.ClaimReply{Result: fleet.ResultRefused, Reason: v.Reason, Error: v.Detail}
	}
	mine := fleet.Claim{Terminal: terminal, At: req.At, Amount: v.Lot, Unconfirmed: req.Unconfirmed, Record: req.Record, Epoch: req.Epoch}
	rep, err := s.claim(ctx, req.Ticket, mine)
	if err != nil {
		s.o.Logger.Warn("fleet service: claim undecided", "terminal", terminal, "ticket", req.Ticket.String(), "err", err)
		return fleet.ClaimReply{Result: fleet.ResultError, Error: err.Error()}
	}
	if rep.Result == fleet.ResultTaken && req.Unconfirmed {
		if err := s.recordConflict(ctx, fleet.Conflict{Ticket: req.Ticket, Holder: rep.Holder, Other: mine}); err != nil {
			return fleet.ClaimReply{Result: fleet.ResultError, Error: err.Error()}
		}
	}
	return rep
}

func (s *Service) claim(ctx context.Context, id codes.TicketID, mine fleet.Claim) (fleet.ClaimReply, error) {
	key := fleet.ClaimKey(id)
	holder, found, err := s.holder(ctx, key)
	if err != nil {
		return fleet.ClaimReply{}, err
	}
	if !found {
		val, _ := json.Marshal(mine)
		_, err := s.st.Claims.Create(ctx, key, val)
		if err == nil {
			return fleet.ClaimReply{Result: fleet.ResultWon, Holder: mine}, nil
		}
		if !errors.Is(err, jetstream.ErrKeyExists) {
			return fleet.ClaimReply{}, fmt.Errorf("create: %w", err)
		}
		// Lost the race: read the winner (retrying while a replica lags behind).
		for range 50 {
			if holder, found, err = s.holder(ctx, key); err != nil || found {
				break
			}
			select {
			case <-ctx.Done():
				return fleet.ClaimReply{}, ctx.Err()
			case <-s.o.Clock.After(10 * time.Millisecond):
			}
		}
		if err != nil {
			return fleet.ClaimReply{}, err
		}
		if !found {
			return fleet.ClaimReply{}, errors.New("claim exists but cannot be read")
		}
	}
	if holder.Terminal == mine.Terminal {
		return fleet.ClaimReply{Result: fleet.ResultYours, Holder: holder}, nil
	}
	return fleet.ClaimReply{Result: fleet.ResultTaken, Holder: holder}, nil
}

func (s *Service) holder(ctx context.Context, key string) (fleet.Claim, bool, error) {
	e, err := s.st.Claims.Get(ctx, key)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return fleet.Claim{}, false, nil
	}
	if err != nil {
		return fleet.Claim{}, false, fmt.Errorf("read: %w", err)
	}
	c, err := fleet.DecodeClaim(e.Value())
	if err != nil {
		return fleet.Claim{}, false, err
	}
	return c, true, nil
}

// recordConflict stores the conflict under both terminals' keys, each written once: a
// key already present is the same pair's conflict recorded before (a claim retried), kept
// as it was first written.
func (s *Service) recordConflict(ctx context.Context, c fleet.Conflict) error {
	val, _ := json.Marshal(c)
	for _, k := range []string{fleet.ConflictEntryKey(c.Holder.Terminal, c.Other.Terminal, c.Ticket),
		fleet.ConflictEntryKey(c.Other.Terminal, c.Holder.Terminal, c.Ticket)} {
		if _, err := s.st.Conflicts.Create(ctx, k, val); err != nil && !errors.Is(err, jetstream.ErrKeyExists) {
			return fmt.Errorf("recording conflict: %w", err)
		}
	}
	s.o.Logger.Error("fleet service: conflict", "ticket", c.Ticket.String(), "holder", c.Holder.Terminal, "other", c.Other.Terminal)
	return nil
}

// maxConflictsReply bounds one conflicts answer (about 200 KiB; a terminal with more
// conflicts than that sees the first ones only: the report still lists them all).
const maxConflictsReply = 500

func (s *Service) handleConflicts(ctx context.Context, terminal string, m *nats.Msg) {
	if err := fleet.CheckTerminal(terminal); err != nil {
		s.replyError(m, err)
		return
	}
	ctx, cancel := context.WithTimeout(ctx, opTimeout)
	defer cancel()
	cs, bad, err := ReadConflicts(ctx, s.st.Conflicts, "c."+terminal+".>", maxConflictsReply)
	if err != nil {
		s.replyError(m, err)
		return
	}
	for _, b := range bad { // the operator's report lists them; the terminal gets the others
		s.o.Logger.Error("fleet service: malformed conflicts entry", "terminal", terminal, "key", b.Key, "err", b.Err)
	}
	if cs == nil {
		cs = []fleet.Conflict{}
	}
	s.reply(m, cs)
}

func (s *Service) handleStatus(ctx context.Context, terminal string, m *nats.Msg) {
	retailer, err := strconv.ParseUint(string(m.Data), 10, 32)
	if err != nil {
		s.replyError(m, fmt.Errorf("status request: retailer %.20q", m.Data))
		return
	}
	if v := s.reg.Load(); v.reg != nil {
		if r, ok := v.retailers[terminal]; !ok || r != uint32(retailer) {
			s.replyError(m, fmt.Errorf("status request: terminal %s is not registered for retailer %d", terminal, retailer))
			return
		}
	}
	ctx, cancel := context.WithTimeout(ctx, opTimeout)
	defer cancel()
	e, err := s.st.Status.Get(ctx, StatusKey(uint32(retailer)))
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		m.Respond(nil)
		return
	}
	if err != nil {
		s.replyError(m, err)
		return
	}
	m.Respond(e.Value())
}

// StatusKey is the status bucket key of a retailer's list.
func StatusKey(retailer uint32) string { return "r." + strconv.FormatUint(uint64(retailer), 10) }
