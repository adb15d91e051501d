package console

import (
	"cmp"
	"slices"
	"sync"
	"time"

	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/device/fleet/server"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/journal"
	"github.com/packterm/pos/validate/ledger"
)

// chartHours is how far back the claims-per-minute chart and its counts go.
const chartHours = 6

// stored is one record of the journal stream and when the fleet received it.
type stored struct {
	rec journal.Record
	at  time.Time
}

// term is what the model holds of one terminal.
type term struct {
	id         string
	retailer   uint32
	registered bool
	recs       []int // indexes into Model.recs, in arrival order
	last       int   // index of its highest-sequence record; -1: none
	seen       time.Time
	payouts    int
	payoutsAmt int64
	faults     int // tamper, lock, journal-reset and token-refused records
	lastFault  int // index of its latest fault record; -1: none
	refusals   []int
	forks      []string
}

// day is the sums of one day of records (the day the fleet received them).
type day struct {
	sales, payouts, claims  int
	salesAmt, payoutsAmt    int64
	payoutRecs, conflictRec []int
	refusals                map[string]int // by reason
}

// Model is the console's picture of the fleet, kept in memory: the records, refusals,
// claims, conflicts and status lists read at start and every one that arrived since.
// It is safe for concurrent use; readers never wait on the fleet.
type Model struct {
	loc *time.Location

	mu        sync.RWMutex
	version   uint64 // bumped at every change
	recs      []stored
	seen      map[recordKey]bool
	hashOf    map[string][32]byte // record id -> its first content's hash
	forks     []string
	terms     map[string]*term
	order     []string // terminal ids, sorted (when sorted); never written in place
	sorted    bool
	days      map[string]*day
	perMinute map[int64]int // unix minute -> payouts received
	refusals  []fleet.Refusal
	refSeen   map[string]bool
	claims    map[codes.TicketID]string
	conflicts []fleet.Conflict
	unconf    []int // indexes of unconfirmed payouts
	status    map[uint32]statusOf
	unread    int // messages and bucket entries that did not read
}

type recordKey struct {
	id   string
	hash [32]byte
}

// NewModel is an empty model whose days are loc's (nil: UTC).
func NewModel(loc *time.Location) *Model {
	if loc == nil {
		loc = time.UTC
	}
	return &Model{loc: loc, seen: map[recordKey]bool{}, hashOf: map[string][32]byte{}, terms: map[string]*term{},
		days: map[string]*day{}, perMinute: map[int64]int{}, refSeen: map[string]bool{},
		claims: map[codes.TicketID]string{}, status: map[uint32]statusOf{}}
}

// dayKey is t's day in the model's zone, YYYY-MM-DD.
func (m *Model) dayKey(t time.Time) string { return t.In(m.loc).Format(time.DateOnly) }

func (m *Model) termOf(id string) *term {
	t := m.terms[id]
	if t == nil {
		t = &term{id: id, last: -1, lastFault: -1}
		m.terms[id] = t
		m.sorted = false
	}
	return t
}

func (m *Model) dayOf(key string) *day {
	d := m.days[key]
	if d == nil {
		d = &day{refusals: map[string]int{}}
		m.days[key] = d
	}
	return d
}

// SetRegistry takes the registry's terminals and their retailers.
func (m *Model) SetRegistry(r *server.Registry) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, t := range m.terms {
		t.registered = false
	}
	for _, rt := range r.Terminals {
		t := m.termOf(rt.ID)
		t.registered, t.retailer = true, rt.Retailer
	}
	m.version++
}

// Load takes the facts read at start.
func (m *Model) Load(f *server.Facts) {
	for i := range f.Records {
		m.AddRecord(f.Records[i], f.Received[i])
	}
	for _, r := range f.Refusals {
		m.AddRefusal(r)
	}
	for _, c := range f.Conflicts {
		m.AddConflict(c)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for id, holder := range f.Claims {
		m.claims[id] = holder
	}
	m.unread += f.Unread()
	m.version++
}

// AddRecord adds a record the fleet received at at; it reports false for a record
// (the same id and content) the model holds already.
func (m *Model) AddRecord(r journal.Record, at time.Time) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	k := recordKey{r.ID(), r.Hash}
	if m.seen[k] {
		return false
	}
	m.seen[k] = true
	i := len(m.recs)
	m.recs = append(m.recs, stored{r, at})
	t := m.termOf(r.Terminal)
	t.recs = append(t.recs, i)
	if t.last < 0 || r.Seq >= m.recs[t.last].rec.Seq {
		t.last = i
	}
	if at.After(t.seen) {
		t.seen = at
	}
	if h, ok := m.hashOf[r.ID()]; !ok {
		m.hashOf[r.ID()] = r.Hash
	} else if h != r.Hash && !slices.Contains(t.forks, r.ID()) {
		t.forks = append(t.forks, r.ID())
		m.forks = append(m.forks, r.ID())
	}
	d := m.dayOf(m.dayKey(at))
	switch r.Kind {
	case journal.KindSale:
		d.sales++
		d.salesAmt += r.Amount
	case journal.KindPayout:
		d.payouts++
		d.payoutsAmt += r.Amount
		d.payoutRecs = append(d.payoutRecs, i)
		t.payouts++
		t.payoutsAmt += r.Amount
		m.perMinute[at.Unix()/60]++
		if r.Unconfirmed() {
			m.unconf = append(m.unconf, i)
		}
	case journal.KindClaim:
		d.claims++
	case journal.KindConflict:
		d.conflictRec = append(d.conflictRec, i)
	case journal.KindTamper, journal.KindLock, journal.KindReset, journal.KindTokenRefused:
		t.faults++
		t.lastFault = i
	}
	m.version++
	return true
}

// AddRefusal adds a refused claim of the refusals stream (the same one again is
// dropped).
func (m *Model) AddRefusal(r fleet.Refusal) {
	m.mu.Lock()
	defer m.mu.Unlock()
	k := r.At.UTC().Format(time.RFC3339Nano) + "|" + r.Terminal + "|" + r.Ticket.String() + "|" + r.Reason + "|" + r.Record
	if m.refSeen[k] {
		return
	}
	m.refSeen[k] = true
	i := len(m.refusals)
	m.refusals = append(m.refusals, r)
	t := m.termOf(r.Terminal)
	t.refusals = append(t.refusals, i)
	m.dayOf(m.dayKey(r.At)).refusals[r.Reason] += max(r.Count, 1)
	m.version++
}

// AddClaim records the claims bucket's holder of a ticket.
func (m *Model) AddClaim(id codes.TicketID, holder string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.claims[id] = holder
	m.version++
}

// AddConflict records an entry of the conflicts bucket (the same ticket between the
// same terminals once).
func (m *Model) AddConflict(c fleet.Conflict) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if slices.ContainsFunc(m.conflicts, func(o fleet.Conflict) bool {
		return o.Ticket == c.Ticket && o.Holder.Terminal == c.Holder.Terminal && o.Other.Terminal == c.Other.Terminal
	}) {
		return
	}
	m.conflicts = append(m.conflicts, c)
	m.version++
}

// statusOf is a retailer's status list as the status bucket holds it, and whether its
// signature was checked with the operator's keys and verified.
type statusOf struct {
	list              *ledger.StatusList
	checked, verified bool
}

// SetStatus records a retailer's pack status list as the status bucket holds it;
// checked says its signature was checked with the operator's keys, verified that it
// verified.
func (m *Model) SetStatus(s *ledger.StatusList, checked, verified bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.status[s.Retailer] = statusOf{s, checked, verified}
	m.version++
}

// AddUnread counts a message or entry that did not read.
func (m *Model) AddUnread() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.unread++
	m.version++
}

// Version changes at every change of the model.
func (m *Model) Version() uint64 {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.version
}

// sortedIDs is the terminals' ids, sorted. The slice is shared: callers only read it
// (a terminal added later makes a new one).
func (m *Model) sortedIDs() []string {
	m.mu.RLock()
	if m.sorted {
		defer m.mu.RUnlock()
		return m.order
	}
	m.mu.RUnlock()
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.sorted {
		order := make([]string, 0, len(m.terms))
		for id := range m.terms {
			order = append(order, id)
		}
		slices.Sort(order)
		m.order, m.sorted = order, true
	}
	return m.order
}

// byTimeDesc orders record indexes latest first.
func (m *Model) byTimeDesc(idx []int) []int {
	out := slices.Clone(idx)
	slices.SortFunc(out, func(a, b int) int {
		return cmp.Or(m.recs[b].at.Compare(m.recs[a].at), cmp.Compare(m.recs[b].rec.Seq, m.recs[a].rec.Seq))
	})
	return out
}
