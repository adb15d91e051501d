package server

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/jonboulle/clockwork"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/validate/journal"
	"github.com/packterm/pos/validate/settle"
)

// WitnessOptions configure a Witness.
type WitnessOptions struct {
	// Registry gives the terminals' device keys (SetRegistry replaces it). A terminal
	// without one is not signature-checked (fleet report lists it: no-device-key).
	Registry *Registry
	// Observer, when set, sees each finding (metrics; must not block).
	Observer WitnessObserver
	// Ready, when set, is closed once the records the stream held at start are checked.
	Ready  chan<- struct{}
	Clock  clockwork.Clock
	Logger *slog.Logger
}

// WitnessObserver sees the witness's findings (device/metrics).
type WitnessObserver interface {
	JournalUnverified(terminal, reason string)
}

// witnessWindow is how many of each terminal's latest sequence numbers the witness holds
// the records of (hash and prev): a record arriving within it is chain-checked against
// its neighbours; an older one (a terminal re-sending its journal) only by its signature
// (fleet report checks the whole chain). Memory: at most 2 × witnessWindow records a
// terminal.
const witnessWindow = 16

// Witness is the fleet's live check of what the terminals publish (docs/fleet.md, "The
// fleet is the witness"): it reads the journal stream from its start and as records
// arrive (an ordered consumer), checks each record's signature against its terminal's
// registered device key and its chain against the records before and after it that it
// holds, records each failure in the refusals stream (unsigned-record, bad-signature,
// rechained, with the record's id) and marks the terminal: the claim service refuses its
// claims (Unverified, journal-unverified). The marks live in memory and are rebuilt from
// the stream at each start, so a finding already in the refusals stream is not recorded
// twice. Forks (another content under a record id already held, its chain intact) are
// fleet report's finding, not the witness's.
type Witness struct {
	js   jetstream.JetStream
	o    WitnessOptions
	keys atomic.Pointer[func(string) []ed25519.PublicKey]

	mu       sync.Mutex
	chains   map[string]map[uint64][]heldRecord // terminal → seq → the records held
	tops     map[string]uint64                  // terminal → highest sequence seen
	marked   map[string]string                  // terminal → its first finding
	recorded map[string]bool                    // findings already in the refusals stream
}

type heldRecord struct{ hash, prev [32]byte }

// WitnessFinding is one record that failed the witness.
type WitnessFinding struct {
	Terminal string
	Record   string // "<terminal>/<seq>"
	Reason   string // fleet.WitnessUnsigned, fleet.WitnessBadSignature, fleet.WitnessRechained
	Detail   string
}

// NewWitness prepares a witness on an operator connection's JetStream.
func NewWitness(js jetstream.JetStream, o WitnessOptions) *Witness {
	if o.Clock == nil {
		o.Clock = clockwork.NewRealClock()
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	w := &Witness{js: js, o: o, chains: map[string]map[uint64][]heldRecord{}, tops: map[string]uint64{},
		marked: map[string]string{}, recorded: map[string]bool{}}
	w.SetRegistry(o.Registry)
	return w
}

// SetRegistry takes the device keys of r for the records that follow (nil: none).
func (w *Witness) SetRegistry(r *Registry) {
	keys := func(string) []ed25519.PublicKey { return nil }
	if r != nil {
		keys = r.DeviceKeys()
	}
	w.keys.Store(&keys)
}

// Unverified says whether a record terminal published failed the witness, and which
// (false on a nil w: no witness).
func (w *Witness) Unverified(terminal string) (string, bool) {
	if w == nil {
		return "", false
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	d, bad := w.marked[terminal]
	return d, bad
}

// Run checks the journal stream from its start, then each record as it arrives, until
// ctx ends (nil then).
func (w *Witness) Run(ctx context.Context) error {
	if err := w.run(ctx); err != nil && ctx.Err() == nil {
		return err
	}
	return nil
}

func (w *Witness) run(ctx context.Context) error {
	if _, err := ReadRefusals(ctx, w.js, func(r fleet.Refusal) error {
		w.recorded[findingKey(r.Terminal, r.Record, r.Reason, r.Detail)] = true
		return nil
	}); err != nil {
		return fmt.Errorf("fleet witness: %w", err)
	}
	s, err := w.js.Stream(ctx, fleet.JournalStream)
	if err != nil {
		return fmt.Errorf("fleet witness: journal stream: %w", err)
	}
	info, err := s.Info(ctx)
	if err != nil {
		return fmt.Errorf("fleet witness: journal stream: %w", err)
	}
	ready := func() {
		if w.o.Ready != nil {
			close(w.o.Ready)
			w.o.Ready = nil
		}
	}
	if info.State.Msgs == 0 {
		ready()
	}
	cons, err := s.OrderedConsumer(ctx, jetstream.OrderedConsumerConfig{})
	if err != nil {
		return fmt.Errorf("fleet witness: journal stream: %w", err)
	}
	it, err := cons.Messages()
	if err != nil {
		return fmt.Errorf("fleet witness: journal stream: %w", err)
	}
	stop := context.AfterFunc(ctx, it.Stop)
	defer stop()
	defer it.Stop()
	for {
		m, err := it.Next()
		if err != nil { // the iterator stopped (ctx: Run returns nil) or the connection failed
			return fmt.Errorf("fleet witness: reading the journal stream: %w", err)
		}
		r, derr := fleet.DecodeJournalMsg(m.Subject(), m.Data())
		if derr != nil { // fleet report lists it (a refused message)
			w.o.Logger.Warn("fleet witness: journal message refused", "subject", m.Subject(), "err", derr)
		} else {
			w.record(ctx, w.Observe(r))
		}
		if md, err := m.Metadata(); err == nil && (md.Sequence.Stream >= info.State.LastSeq || md.NumPending == 0) {
			ready()
		}
	}
}

// Observe checks record r against the terminal's registered device keys and the records
// of its terminal the witness holds, takes it, and returns its findings (the terminal is
// marked when there is one). A record already held is passed.
func (w *Witness) Observe(r journal.Record) []WitnessFinding {
	keys := (*w.keys.Load())(r.Terminal)
	w.mu.Lock()
	defer w.mu.Unlock()
	held := w.chains[r.Terminal]
	if held == nil {
		held = map[uint64][]heldRecord{}
		w.chains[r.Terminal] = held
	}
	if slices.ContainsFunc(held[r.Seq], func(h heldRecord) bool { return h.hash == r.Hash }) {
		return nil
	}
	var out []WitnessFinding
	find := func(reason, detail string) {
		out = append(out, WitnessFinding{Terminal: r.Terminal, Record: r.ID(), Reason: reason,
			Detail: detail + " (hash " + hex.EncodeToString(r.Hash[:8]) + ")"})
	}
	if len(keys) > 0 {
		if pub, reason, d, bad := settle.KeyFault(&r, keys); bad && reason == settle.ReasonUnsigned {
			find(fleet.WitnessUnsigned, d)
		} else if bad {
			find(fleet.WitnessBadSignature, d)
		} else if err := r.VerifySignature(pub); err != nil {
			find(fleet.WitnessBadSignature, "the signature is not the registered device key's")
		}
	}
	prevs := make([][32]byte, 0, 1)
	for _, h := range held[r.Seq-1] {
		prevs = append(prevs, h.hash)
	}
	if d, bad := settle.ChainFault(&r, prevs); bad {
		find(fleet.WitnessRechained, d)
	} else if nexts := held[r.Seq+1]; len(nexts) > 0 && len(held[r.Seq]) == 0 &&
		!slices.ContainsFunc(nexts, func(h heldRecord) bool { return h.prev == r.Hash }) {
		find(fleet.WitnessRechained, fmt.Sprintf("record %s/%d the fleet holds names another previous record", r.Terminal, r.Seq+1))
	}
	w.hold(held, &r)
	if len(out) > 0 {
		if _, ok := w.marked[r.Terminal]; !ok {
			w.marked[r.Terminal] = fmt.Sprintf("record %s failed the fleet's witness: %s", r.ID(), out[0].Reason)
		}
	}
	return out
}

// hold keeps r among its terminal's records, and forgets those below the window.
func (w *Witness) hold(held map[uint64][]heldRecord, r *journal.Record) {
	held[r.Seq] = append(held[r.Seq], heldRecord{hash: r.Hash, prev: r.Prev})
	top := max(w.tops[r.Terminal], r.Seq)
	w.tops[r.Terminal] = top
	if len(held) <= 2*witnessWindow {
		return
	}
	for seq := range held {
		if seq+witnessWindow <= top {
			delete(held, seq)
		}
	}
}

// record stores each finding in the refusals stream (once: the stream is read at start,
// and the message id dedupes the witnesses of other service instances), logs it and
// tells the observer.
func (w *Witness) record(ctx context.Context, fs []WitnessFinding) {
	for _, f := range fs {
		w.o.Logger.Error("fleet witness: record refused", "terminal", f.Terminal, "record", f.Record, "reason", f.Reason, "detail", f.Detail)
		if w.o.Observer != nil {
			w.o.Observer.JournalUnverified(f.Terminal, f.Reason)
		}
		key := findingKey(f.Terminal, f.Record, f.Reason, f.Detail)
		if w.recorded[key] {
			continue
		}
		b, _ := json.Marshal(fleet.Refusal{At: w.o.Clock.Now(), Terminal: f.Terminal, Reason: f.Reason, Detail: f.Detail, Record: f.Record})
		id := sha256.Sum256([]byte(key)) // several witnesses (one per service) record it once
		if _, err := w.js.Publish(ctx, fleet.RefusalPrefix+f.Terminal, b, jetstream.WithMsgID("witness-"+hex.EncodeToString(id[:16]))); err != nil {
			w.o.Logger.Error("fleet witness: recording a finding", "terminal", f.Terminal, "record", f.Record, "err", err)
			continue
		}
		w.recorded[key] = true
	}
}

func findingKey(terminal, record, reason, detail string) string {
	return terminal + "\x00" + record + "\x00" + reason + "\x00" + detail
}
