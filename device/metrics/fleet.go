package metrics

import (
	"net/http"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Fleet is the claim service's metrics; it is the service's observer
// (server.ServiceOptions.Observer) and its witness's (server.WitnessOptions.Observer).
type Fleet struct {
	reg      *prometheus.Registry
	claims   *prometheus.CounterVec
	refusals *prometheus.CounterVec
	latency  prometheus.Histogram
	records  prometheus.Counter
	refused  *prometheus.CounterVec
	seen     prometheus.Gauge
	dropped  *prometheus.CounterVec
	waited   *prometheus.HistogramVec

	mu        sync.Mutex
	terminals map[string]struct{}
}

// ClaimBuckets are the claim latency histogram's buckets (seconds): 1 ms to 5 s, the
// goal being p99 under 50 ms.
var claimBuckets = []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5}

// NewFleet makes the claim service's collectors.
func NewFleet() *Fleet {
	m := &Fleet{
		reg: prometheus.NewRegistry(),
		claims: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "fleet_claims_total",
			Help: "Claims answered, by result (won, yours, taken, refused, error)."}, []string{"result"}),
		refusals: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "fleet_claim_refusals_total",
			Help: "Claims refused, by reason (wrong-code, loser, amount, not-delivered, rate-limited…)."}, []string{"reason"}),
		latency: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "fleet_claim_duration_seconds",
			Help: "Time from a claim's arrival at the service to its answer.", Buckets: claimBuckets}),
		records: prometheus.NewCounter(prometheus.CounterOpts{Name: "fleet_journal_records_received_total",
			Help: "Journal records the terminals published, as this service saw them (duplicates included)."}),
		refused: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "fleet_journal_records_refused_total",
			Help: "Journal records the witness refused, by reason (unsigned-record, bad-signature, rechained)."}, []string{"reason"}),
		seen: prometheus.NewGauge(prometheus.GaugeOpts{Name: "fleet_terminals_seen",
			Help: "Distinct terminals that claimed or published since the service started."}),
		dropped: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "fleet_requests_dropped_total",
			Help: "Requests dropped unanswered because their terminal's queue was full: a terminal flooding the service (only such terminals appear)."},
			[]string{"terminal", "kind"}),
		waited: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "fleet_request_wait_seconds",
			Help: "Time a request waited in the service's fair queue before a handler took it, by kind.", Buckets: claimBuckets},
			[]string{"kind"}),
		terminals: map[string]struct{}{},
	}
	m.reg.MustRegister(m.claims, m.refusals, m.latency, m.records, m.refused, m.seen, m.dropped, m.waited)
	return m
}

// Handler serves the metrics in the Prometheus text format.
func (m *Fleet) Handler() http.Handler { return handler(m.reg) }

// ClaimDecided counts a claim's answer, its refusal reason if any, and its latency.
func (m *Fleet) ClaimDecided(terminal, result, reason string, d time.Duration) {
	m.claims.WithLabelValues(result).Inc()
	if reason != "" {
		m.refusals.WithLabelValues(reasonLabel(reason)).Inc()
	}
	m.latency.Observe(d.Seconds())
	m.terminal(terminal)
}

// JournalRecord counts a journal record published by terminal.
func (m *Fleet) JournalRecord(terminal string) {
	m.records.Inc()
	m.terminal(terminal)
}

// RequestDropped counts a request of terminal dropped for its full queue (a flood).
func (m *Fleet) RequestDropped(terminal, kind string) {
	m.dropped.WithLabelValues(terminal, kind).Inc()
}

// RequestTaken observes how long a request of kind waited for a handler.
func (m *Fleet) RequestTaken(_, kind string, waited time.Duration) {
	m.waited.WithLabelValues(kind).Observe(waited.Seconds())
}

// JournalUnverified counts a record of terminal the fleet's witness refused (it is the
// witness's observer too: server.WitnessObserver).
func (m *Fleet) JournalUnverified(terminal, reason string) {
	m.refused.WithLabelValues(reasonLabel(reason)).Inc()
	m.terminal(terminal)
}

func (m *Fleet) terminal(id string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.terminals[id]; !ok {
		m.terminals[id] = struct{}{}
		m.seen.Set(float64(len(m.terminals)))
	}
}
