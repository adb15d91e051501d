package daemon

import (
	"fmt"

	"github.com/packterm/pos/validate/journal"
	"github.com/packterm/pos/validate/ledger"
)

// statusFromFleet journals a pack status list the fleet client installed and asks for
// the restart that takes it in.
func (d *run) statusFromFleet(res ledger.Installed) {
	detail := fmt.Sprintf("version %d (fleet)", res.Version)
	if res.HadPrevious {
		detail = fmt.Sprintf("version %d, was %d (fleet)", res.Version, res.Previous)
	}
	if _, err := d.j.AppendTrace(journal.Entry{Kind: journal.KindStatusInstall, Detail: detail}); err != nil { // the floor, even on a clock set back
		d.log.Error("posd: journalling a status list install", "err", err)
	}
	d.notifyFleet()
	d.restart.request("pack status list " + detail)
}

func (d *run) notifyFleet() {
	if d.fleet != nil {
		d.fleet.Notify()
	}
}
