package main

import (
	"sync/atomic"

	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/device/metrics"
	"github.com/packterm/pos/validate/journal"
)

// posdMetrics are the terminal's metrics (/metrics on the web page, device/metrics);
// their journal and fleet client are given once the daemon runs.
type posdMetrics struct {
	*metrics.Terminal
	j     atomic.Pointer[journal.Journal]
	fleet atomic.Pointer[fleet.Client]
}

func newPosdMetrics() *posdMetrics {
	p := &posdMetrics{}
	p.Terminal = metrics.NewTerminal(metrics.TerminalSources{
		JournalLag: func() (uint64, bool) {
			j, c := p.j.Load(), p.fleet.Load()
			if j == nil || c == nil {
				return 0, false
			}
			seq, _ := j.Head()
			acked := c.Acked()
			if acked > seq {
				return 0, true
			}
			return seq - acked, true
		},
		Unconfirmed: func() (int64, error) {
			if c := p.fleet.Load(); c != nil {
				return c.Unclaimed()
			}
			return 0, nil
		},
	})
	return p
}

// sources gives the metrics the journal and the fleet client (nil: no fleet).
func (p *posdMetrics) sources(j *journal.Journal, c *fleet.Client) {
	p.j.Store(j)
	if c != nil {
		p.fleet.Store(c)
	}
}
