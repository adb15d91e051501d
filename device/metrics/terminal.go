package metrics

import (
	"net/http"
	"strings"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/packterm/pos/validate/journal"
)

// TerminalSources give the terminal's gauges read at each scrape; any may be nil.
type TerminalSources struct {
	// JournalLag is the number of journal records the fleet has not acknowledged yet
	// (the journal's head minus the fleet client's acknowledged sequence).
	JournalLag func() (uint64, bool)
	// Unconfirmed is what the terminal paid while the fleet was out of reach and has not
	// claimed yet (cents; the fleet client's Unclaimed).
	Unconfirmed func() (int64, error)
}

// Terminal is posd's metrics; it is the terminal's Observer (device/terminal).
type Terminal struct {
	reg      *prometheus.Registry
	scans    prometheus.Counter
	verdicts *prometheus.CounterVec
	payouts  *prometheus.CounterVec
	cents    *prometheus.CounterVec
	faults   *prometheus.CounterVec
}

// NewTerminal makes posd's collectors, reading src at each scrape.
func NewTerminal(src TerminalSources) *Terminal {
	m := &Terminal{
		reg: prometheus.NewRegistry(),
		scans: prometheus.NewCounter(prometheus.CounterOpts{Name: "posd_scans_total",
			Help: "Codes scanned (any kind, read or not)."}),
		verdicts: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "posd_verdicts_total",
			Help: "Journal records by kind and reason: payouts, refusals (reason), claims above the limit, sales."}, []string{"kind", "reason"}),
		payouts: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "posd_payouts_total",
			Help: "Payouts: confirmed (claimed by the fleet, or a terminal without one) or unconfirmed (paid while the fleet was out of reach)."}, []string{"fleet"}),
		cents: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "posd_payouts_cents_total",
			Help: "Amount paid out, in cents."}, []string{"fleet"}),
		faults: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "posd_faults_total",
			Help: "Hardware faults entered, by part (printer, paper, display, scanner, storage…)."}, []string{"part"}),
	}
	m.reg.MustRegister(m.scans, m.verdicts, m.payouts, m.cents, m.faults)
	if src.JournalLag != nil {
		m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "posd_fleet_journal_lag_records",
			Help: "Journal records not yet acknowledged by the fleet."}, func() float64 {
			n, ok := src.JournalLag()
			if !ok {
				return -1
			}
			return float64(n)
		}))
	}
	if src.Unconfirmed != nil {
		m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "posd_unconfirmed_payouts_cents",
			Help: "Paid while the fleet was out of reach and not claimed yet, in cents (-1: unknown)."}, func() float64 {
			c, err := src.Unconfirmed()
			if err != nil {
				return -1
			}
			return float64(c)
		}))
	}
	return m
}

// Handler serves the metrics in the Prometheus text format.
func (m *Terminal) Handler() http.Handler { return handler(m.reg) }

// Scanned counts a code scanned.
func (m *Terminal) Scanned() { m.scans.Inc() }

// Recorded counts a journal record: its kind and reason, and a payout's amount.
func (m *Terminal) Recorded(r journal.Record) {
	m.verdicts.WithLabelValues(r.Kind.String(), reasonLabel(r.Reason)).Inc()
	if r.Kind != journal.KindPayout {
		return
	}
	f := "confirmed"
	if r.Unconfirmed() {
		f = "unconfirmed"
	}
	m.payouts.WithLabelValues(f).Inc()
	m.cents.WithLabelValues(f).Add(float64(r.Amount))
}

// Fault counts a hardware fault entered.
func (m *Terminal) Fault(part string) { m.faults.WithLabelValues(part).Inc() }

// reasonLabel keeps a reason's label short and bounded (reasons are the journal's
// constants; "fleet-refused:<reason>" keeps its fleet reason).
func reasonLabel(s string) string {
	if len(s) > 40 {
		s = s[:40]
	}
	return strings.ToValidUTF8(s, "")
}

func handler(reg *prometheus.Registry) http.Handler {
	return promhttp.HandlerFor(reg, promhttp.HandlerOpts{ErrorHandling: promhttp.ContinueOnError})
}
