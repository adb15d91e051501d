package console

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/journal"
	"github.com/packterm/pos/validate/settle"
)

// ErrNoManifests is a settlement asked of a console started without block manifests.
var ErrNoManifests = errors.New("console: no block manifests: settlement needs them (--manifest)")

// Settling is what settlement needs besides the records: the blocks' truth (their
// manifests), Settle's options (the operator's limits) and the registered device keys
// (the witness check), as posctl fleet settle takes them. DeviceKeys, if set, is called
// once a settlement for the registry's keys as they are then (posctl reads
// terminals.json again, as fleet settle does).
type Settling struct {
	Truth      *settle.Truth
	Options    []settle.Option
	DeviceKeys func() func(terminal string) []ed25519.PublicKey
}

// DaySettlement is a day's settlement: the proof of every payout the fleet holds
// (settle.Settle over the whole journal stream, as fleet settle --json makes it)
// restricted to the payouts the fleet received that day, and the day's totals per
// retailer and block with its payouts split into proven and flagged.
type DaySettlement struct {
	Day        string             `json:"day"`
	Flagged    bool               `json:"flagged"`
	Rows       []settle.Row       `json:"rows"`
	Settlement *settle.Settlement `json:"settlement"`
}

// settler caches the whole journal's settlement by model version.
type settler struct {
	m   *Model
	src *Settling

	calc    sync.Mutex
	mu      sync.Mutex
	version uint64
	full    *settle.Settlement
	days    map[string]*cachedDay
	busy    bool   // a background settlement is being made
	done    func() // called when a background settlement is made
}

// snapshot copies the records (and when each was received) and the claims.
func (m *Model) snapshot() ([]journal.Record, []time.Time, map[codes.TicketID]string, uint64) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	recs := make([]journal.Record, len(m.recs))
	at := make([]time.Time, len(m.recs))
	for i := range m.recs {
		recs[i], at[i] = m.recs[i].rec, m.recs[i].at
	}
	return recs, at, maps.Clone(m.claims), m.version
}

// retailerOf maps a terminal to its registered retailer.
func (m *Model) retailerOf() func(string) (uint32, bool) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	ret := make(map[string]uint32, len(m.terms))
	for id, t := range m.terms {
		if t.registered {
			ret[id] = t.retailer
		}
	}
	return func(id string) (uint32, bool) { r, ok := ret[id]; return r, ok }
}

// settlement is the whole journal's settlement, and the records it was made of.
func (s *settler) settlement() (*settle.Settlement, []journal.Record, []time.Time, error) {
	if s.src == nil || s.src.Truth == nil {
		return nil, nil, nil, ErrNoManifests
	}
	recs, at, claims, v := s.m.snapshot()
	s.calc.Lock() // one settlement at a time
	defer s.calc.Unlock()
	s.mu.Lock()
	full, fv := s.full, s.version
	s.mu.Unlock()
	if full != nil && fv == v {
		return full, recs, at, nil
	}
	opts := slices.Clone(s.src.Options)
	if s.src.DeviceKeys != nil {
		opts = append(opts, settle.WithWitness(settle.CheckRecords(recs, s.src.DeviceKeys())))
	}
	full, err := settle.Settle(recs, s.src.Truth, claims, opts...)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("console: settlement: %w", err)
	}
	s.mu.Lock()
	s.full, s.version = full, v
	s.mu.Unlock()
	return full, recs, at, nil
}

// day is day's settlement.
func (s *settler) day(day string) (*DaySettlement, error) {
	full, recs, at, err := s.settlement()
	if err != nil {
		return nil, err
	}
	var dayRecs []journal.Record
	ids := map[string]bool{}
	for i := range recs {
		if s.m.dayKey(at[i]) == day {
			dayRecs = append(dayRecs, recs[i])
			ids[recs[i].ID()] = true
		}
	}
	rep := settle.BuildSettled(dayRecs, s.m.retailerOf(), full)
	ds := &DaySettlement{Day: day, Rows: rep.Rows, Settlement: &settle.Settlement{Blocks: full.Blocks,
		Flagged: []settle.Payout{}, Forks: []string{}, Totals: settle.PayoutTotals{ByReason: map[string]int{}}}}
	t := &ds.Settlement.Totals
	for _, r := range rep.Rows {
		t.Payouts += r.Payouts
		t.Amount += r.PayoutsAmount
	}
	for _, p := range full.Flagged {
		if !ids[p.Record] {
			continue
		}
		ds.Settlement.Flagged = append(ds.Settlement.Flagged, p)
		t.Flagged++
		t.FlaggedAmount += p.Amount
		if p.PrizeKnown && p.Amount > p.Prize {
			t.Excess += p.Amount - p.Prize
		}
		seen := map[string]bool{}
		for _, f := range p.Flags {
			if !seen[f.Reason] {
				seen[f.Reason] = true
				t.ByReason[f.Reason]++
			}
		}
	}
	t.Proven, t.ProvenAmount = t.Payouts-t.Flagged, t.Amount-t.FlaggedAmount
	for _, f := range full.Forks {
		if ids[f] {
			ds.Settlement.Forks = append(ds.Settlement.Forks, f)
		}
	}
	ds.Flagged = len(ds.Settlement.Flagged) > 0 || len(ds.Settlement.Forks) > 0
	return ds, nil
}

// dayCached is the last settlement of day made (nil: none yet), without waiting; when
// the model changed since, a new one is made in the background. The overview shows it:
// a settlement of the whole journal takes longer than a page may.
func (s *settler) dayCached(day string) (*DaySettlement, error) {
	if s.src == nil || s.src.Truth == nil {
		return nil, ErrNoManifests
	}
	v := s.m.Version()
	s.mu.Lock()
	last := s.days[day]
	if (last == nil || last.version != v) && !s.busy {
		s.busy = true
		go func() {
			ds, err := s.day(day)
			s.mu.Lock()
			s.busy = false
			if err == nil {
				s.days[day] = &cachedDay{v, ds}
			}
			s.mu.Unlock()
			if err == nil && s.done != nil && (last == nil || len(last.ds.Settlement.Flagged) != len(ds.Settlement.Flagged)) {
				s.done()
			}
		}()
	}
	s.mu.Unlock()
	if last == nil {
		return nil, nil
	}
	return last.ds, nil
}

type cachedDay struct {
	version uint64
	ds      *DaySettlement
}
