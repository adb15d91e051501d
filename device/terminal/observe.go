package terminal

import (
	"github.com/packterm/pos/device/retail"
	"github.com/packterm/pos/validate/journal"
)

// Observer sees what the terminal does, for its metrics (device/metrics): each code
// scanned, each record it journals (sales, payouts, refusals, claims: the verdicts), and
// each hardware fault it enters. Calls are made on the terminal's goroutine and must
// not block.
type Observer interface {
	Scanned()
	Recorded(r journal.Record)
	Fault(part string) // "paper", "cover", "printer-offline", "printer", "scanner", "journal", "display", "storage"
}

type noObserver struct{}

func (noObserver) Scanned()                {}
func (noObserver) Recorded(journal.Record) {}
func (noObserver) Fault(string)            {}

// observer is the configured observer, or one that does nothing.
func (t *Terminal) observer() Observer {
	if t.cfg.Observer == nil {
		return noObserver{}
	}
	return t.cfg.Observer
}

// FaultPart names a fault for an Observer.
func FaultPart(f retail.Fault) string {
	switch f {
	case retail.FaultPaper:
		return "paper"
	case retail.FaultCover:
		return "cover"
	case retail.FaultOffline:
		return "printer-offline"
	case retail.FaultPrinter:
		return "printer"
	case retail.FaultScanner:
		return "scanner"
	case retail.FaultJournal:
		return "journal"
	case retail.FaultDisplay:
		return "display"
	case retail.FaultStorage:
		return "storage"
	case retail.FaultClock:
		return "clock"
	}
	return "other"
}
