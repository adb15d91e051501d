package console

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/validate/journal"
	"github.com/packterm/pos/validate/ledger"
)

// maxDetail bounds a record's detail as a page shows it.
const maxDetail = 160

// Counted is a count with the link to the rows behind it.
type Counted struct {
	Reason string
	N      int
}

// Overview is the overview page's numbers for one day.
type Overview struct {
	Day                    string
	Online, Silent, Never  int
	Sales, Payouts, Claims int
	SalesAmt, PayoutsAmt   int64
	Refusals               []Counted // by reason
	RefusalsTotal          int
	Conflicts              int // entries of the conflicts bucket
	ConflictRecords        int // conflict records received that day
	Unclaimed              int // unconfirmed payouts the claims bucket does not hold for their terminal
	UnclaimedAmt           int64
	Forks                  int
	Unread                 int
	PerMinute              []int // payouts received per minute, the last chartHours hours, oldest first
	ChartEnd               time.Time
}

// stateOf is a terminal's state at now: never seen, online (a record within
// silentAfter), silent.
func stateOf(t *term, now time.Time, silentAfter time.Duration) string {
	switch {
	case t.last < 0:
		return StateNever
	case now.Sub(t.seen) <= silentAfter:
		return StateOnline
	default:
		return StateSilent
	}
}

// Overview sums day (YYYY-MM-DD) and the terminals' states at now.
func (m *Model) Overview(dayKey string, now time.Time, silentAfter time.Duration) Overview {
	m.mu.RLock()
	defer m.mu.RUnlock()
	o := Overview{Day: dayKey, Conflicts: len(m.conflicts), Forks: len(m.forks), Unread: m.unread}
	for _, t := range m.terms {
		switch stateOf(t, now, silentAfter) {
		case StateOnline:
			o.Online++
		case StateSilent:
			o.Silent++
		default:
			o.Never++
		}
	}
	if d := m.days[dayKey]; d != nil {
		o.Sales, o.Payouts, o.Claims, o.SalesAmt, o.PayoutsAmt = d.sales, d.payouts, d.claims, d.salesAmt, d.payoutsAmt
		o.ConflictRecords = len(d.conflictRec)
		for r, n := range d.refusals {
			o.Refusals = append(o.Refusals, Counted{r, n})
			o.RefusalsTotal += n
		}
		slices.SortFunc(o.Refusals, func(a, b Counted) int { return cmp.Or(cmp.Compare(b.N, a.N), cmp.Compare(a.Reason, b.Reason)) })
	}
	for _, i := range m.unconf {
		if r := &m.recs[i].rec; m.claims[r.Ticket] != r.Terminal {
			o.Unclaimed++
			o.UnclaimedAmt += r.Amount
		}
	}
	end := now.Unix() / 60
	o.ChartEnd = time.Unix(end*60, 0)
	o.PerMinute = make([]int, chartHours*60)
	for i := range o.PerMinute {
		o.PerMinute[i] = m.perMinute[end-int64(len(o.PerMinute)-1-i)]
	}
	return o
}

// TermRow is one terminal as the lists show it.
type TermRow struct {
	ID         string
	Retailer   uint32
	Registered bool
	State      string
	Seen       time.Time
	Records    int
	LastSeq    uint64
	LastKind   string
	LastTime   time.Time
	Payouts    int
	PayoutsAmt int64
	Faults     int
	LastFault  string
	Refusals   int
	Forks      int
}

func (m *Model) rowOf(t *term, now time.Time, silentAfter time.Duration) TermRow {
	row := TermRow{ID: t.id, Retailer: t.retailer, Registered: t.registered, State: stateOf(t, now, silentAfter),
		Seen: t.seen, Records: len(t.recs), Payouts: t.payouts, PayoutsAmt: t.payoutsAmt, Faults: t.faults,
		Refusals: len(t.refusals), Forks: len(t.forks)}
	if t.last >= 0 {
		r := &m.recs[t.last].rec
		row.LastSeq, row.LastKind, row.LastTime = r.Seq, r.Kind.String(), r.Time
	}
	if t.lastFault >= 0 {
		row.LastFault = m.recs[t.lastFault].rec.Kind.String()
	}
	return row
}

// terminals lists the terminals q asks for (by id), the page of them q shows, and how
// many there are in all.
func (m *Model) terminals(q listQuery, now time.Time, silentAfter time.Duration) ([]TermRow, int) {
	ids := m.sortedIDs()
	m.mu.RLock()
	defer m.mu.RUnlock()
	from, to := (q.Page-1)*q.Per, q.Page*q.Per
	var rows []TermRow
	n := 0
	for _, id := range ids {
		t := m.terms[id]
		if q.Q != "" && !strings.Contains(id, q.Q) || q.Retailer != 0 && t.retailer != q.Retailer ||
			q.State != "" && stateOf(t, now, silentAfter) != q.State {
			continue
		}
		if n >= from && n < to {
			rows = append(rows, m.rowOf(t, now, silentAfter))
		}
		n++
	}
	return rows, n
}

// RecRow is one record as the pages show it: never its validation code.
type RecRow struct {
	ID          string
	Terminal    string
	Seq         uint64
	Kind        string
	Time        time.Time // the terminal's clock
	At          time.Time // when the fleet received it
	Ticket      string
	Amount      int64
	HasAmount   bool
	Reason      string
	Detail      string
	Unconfirmed bool
}

func recRow(s *stored) RecRow {
	r := &s.rec
	row := RecRow{ID: r.ID(), Terminal: r.Terminal, Seq: r.Seq, Kind: r.Kind.String(), Time: r.Time, At: s.at,
		Amount: r.Amount, HasAmount: r.Amount != 0, Reason: r.Reason, Unconfirmed: r.Unconfirmed()}
	if r.Ticket.Block != 0 {
		row.Ticket = r.Ticket.String()
	}
	row.Detail = r.Detail
	if len(row.Detail) > maxDetail {
		row.Detail = strings.ToValidUTF8(row.Detail[:maxDetail], "") + "…"
	}
	return row
}

// TermView is one terminal's page.
type TermView struct {
	TermRow
	Records  []RecRow // the page q asks for, latest first
	Total    int
	Refusals []fleet.Refusal // latest first, at most maxPer
	ForkIDs  []string
}

// terminal is terminal id's page (false: no such terminal); q.Kind filters its records.
func (m *Model) terminal(id string, q listQuery, now time.Time, silentAfter time.Duration) (TermView, bool) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	t := m.terms[id]
	if t == nil {
		return TermView{}, false
	}
	v := TermView{TermRow: m.rowOf(t, now, silentAfter), ForkIDs: slices.Clone(t.forks)}
	idx := t.recs
	if q.Kind != 0 {
		idx = slices.DeleteFunc(slices.Clone(idx), func(i int) bool { return m.recs[i].rec.Kind != q.Kind })
	}
	idx = m.byTimeDesc(idx)
	v.Total = len(idx)
	from, to := q.window(len(idx))
	for _, i := range idx[from:to] {
		v.Records = append(v.Records, recRow(&m.recs[i]))
	}
	for k := len(t.refusals) - 1; k >= 0 && len(v.Refusals) < maxPer; k-- {
		v.Refusals = append(v.Refusals, m.refusals[t.refusals[k]])
	}
	return v, true
}

// records lists the records of day q.Day (of kind q.Kind, if set), or with q.Unclaim
// the unconfirmed payouts not yet claimed (any day): the page q asks for, latest first,
// and how many there are.
func (m *Model) records(q listQuery) ([]RecRow, int) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	var idx []int
	switch {
	case q.Unclaim:
		for _, i := range m.unconf {
			if r := &m.recs[i].rec; m.claims[r.Ticket] != r.Terminal {
				idx = append(idx, i)
			}
		}
	case q.Kind == journal.KindPayout:
		if d := m.days[q.Day]; d != nil {
			idx = d.payoutRecs
		}
	case q.Kind == journal.KindConflict:
		if d := m.days[q.Day]; d != nil {
			idx = d.conflictRec
		}
	default:
		for i := range m.recs {
			if m.dayKey(m.recs[i].at) == q.Day && (q.Kind == 0 || m.recs[i].rec.Kind == q.Kind) {
				idx = append(idx, i)
			}
		}
	}
	idx = m.byTimeDesc(idx)
	from, to := q.window(len(idx))
	rows := make([]RecRow, 0, to-from)
	for _, i := range idx[from:to] {
		rows = append(rows, recRow(&m.recs[i]))
	}
	return rows, len(idx)
}

// refusalsOf lists the refused claims of day q.Day (of reason q.Reason, if set), latest
// first: the page q asks for and how many there are.
func (m *Model) refusalsOf(q listQuery) ([]fleet.Refusal, int) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	var out []fleet.Refusal
	for i := len(m.refusals) - 1; i >= 0; i-- {
		r := m.refusals[i]
		if m.dayKey(r.At) == q.Day && (q.Reason == "" || r.Reason == q.Reason) {
			out = append(out, r)
		}
	}
	from, to := q.window(len(out))
	return out[from:to], len(out)
}

// Conflicts lists the conflicts bucket's entries, by ticket.
func (m *Model) Conflicts() []fleet.Conflict {
	m.mu.RLock()
	defer m.mu.RUnlock()
	out := slices.Clone(m.conflicts)
	slices.SortFunc(out, func(a, b fleet.Conflict) int { return cmp.Compare(a.Ticket.String(), b.Ticket.String()) })
	return out
}

// Retailer is one retailer's page section: its status list as the status bucket holds
// it (nil: none), whether its signature verified, and its terminals.
type Retailer struct {
	ID        uint32
	Status    *ledger.StatusList
	Checked   bool // its signature was checked with the operator's keys
	Verified  bool // and verified
	Terminals []string
}

// Retailers lists every retailer with a terminal or a status list.
func (m *Model) Retailers() []Retailer {
	ids := m.sortedIDs()
	m.mu.RLock()
	defer m.mu.RUnlock()
	by := map[uint32]*Retailer{}
	get := func(id uint32) *Retailer {
		if by[id] == nil {
			by[id] = &Retailer{ID: id}
		}
		return by[id]
	}
	for _, id := range ids {
		if t := m.terms[id]; t.registered {
			r := get(t.retailer)
			r.Terminals = append(r.Terminals, id)
		}
	}
	for id, s := range m.status {
		r := get(id)
		r.Status, r.Checked, r.Verified = s.list, s.checked, s.verified
	}
	out := make([]Retailer, 0, len(by))
	for _, r := range by {
		out = append(out, *r)
	}
	slices.SortFunc(out, func(a, b Retailer) int { return cmp.Compare(a.ID, b.ID) })
	return out
}
