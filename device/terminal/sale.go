package terminal

import (
	"context"
	"errors"

	"github.com/packterm/pos/device/retail"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/journal"
)

// sale checks a pack code, shows the price and waits for OK.
type sale struct{ pack codes.PackCode }

func (sale) Name() string { return "sale" }

func (s sale) Run(ctx context.Context, t *Terminal) State {
	if next := t.dataGate(codes.TicketID{Block: s.pack.Block, Pack: s.pack.Pack}); next != nil { // datafloor.go
		return next
	}
	status := t.data.Status
	if t.cfg.AllDelivered && status == nil {
		status = retail.AllDelivered{}
	}
	if o := retail.JudgePack(t.data.Ledgers, status, s.pack); o != retail.PackSellable {
		t.log.Info("terminal: sale refused", "block", s.pack.Block, "pack", s.pack.Pack, "reason", o.String())
		return result{"sale-refused", retail.PackRefused(o), retail.SignalRefused}
	}
	if rec, sold, err := t.data.Journal.Sold(s.pack.Block, s.pack.Pack); err != nil {
		return t.journalFault(err)
	} else if sold {
		return result{"already-sold", retail.AlreadySold(rec.Time), retail.SignalRefused}
	}
	price := int64(t.data.Ledgers.Get(s.pack.Block).Header().Definition.PackPrice) // JudgePack found it
	t.show(retail.PackOffer(s.pack.Pack, price))
	t.signal(ctx, retail.SignalNone)
	since := t.cfg.Clock.Now()
	for {
		ev, ok := t.wait(ctx, t.cfg.OfferTimeout)
		switch {
		case !ok && ctx.Err() != nil:
			return nil
		case !ok, ev.Kind == EvCancel && answered(ev, since):
			return result{"sale-cancelled", retail.SaleCancelled(), retail.SignalNone}
		case ev.Kind == EvOK && answered(ev, since):
			if next := t.checkDisplay(s); next != nil {
				return next // the price confirmed was on a panel that does not answer
			}
			return sell{pack: s.pack, price: price}
		case ev.Kind == EvTamper && t.tampered():
			return tamperLock{}
		case ev.Kind == EvScan:
			return t.scanned(ev) // another code: this sale is dropped
		case ev.Kind == EvScannerGone, ev.Kind == EvScannerBack:
			t.setScanner(ev.Kind == EvScannerBack)
		}
	}
}

// sell records the sale, then prints its receipt.
type sell struct {
	pack  codes.PackCode
	price int64
}

func (sell) Name() string { return "sell" }

func (s sell) Run(ctx context.Context, t *Terminal) State {
	id := codes.TicketID{Block: s.pack.Block, Pack: s.pack.Pack}
	r, err := t.recordWithReceipts(journal.Entry{Kind: journal.KindSale, Ticket: id, Amount: s.price}, []string{"V"}, t.saleReceipts)
	var se *storageError
	switch {
	case errors.As(err, &se):
		return t.storageFault(err, sale{pack: s.pack}) // nothing sold: offered again once it clears
	case errors.Is(err, journal.ErrDuplicateSale):
		r, _, _ := t.data.Journal.Sold(s.pack.Block, s.pack.Pack)
		return result{"already-sold", retail.AlreadySold(r.Time), retail.SignalRefused}
	case err != nil:
		return t.journalFault(err)
	}
	t.log.Info("terminal: pack sold", "block", s.pack.Block, "pack", s.pack.Pack, "seq", r.rec.Seq)
	return delivery(r, false, result{"sold", retail.Sold(s.pack.Pack, s.price), retail.SignalOK})
}

// journalFault is where a journal that cannot record leads: nothing is sold or paid. A
// record refused because the clock is behind the journal leads to the clock fault.
func (t *Terminal) journalFault(err error) State {
	if errors.Is(err, journal.ErrClockBehind) { // nothing recorded: the clock must be set right first
		t.log.Error("terminal: journal refused a record dated before its last one", "err", err)
		return t.clockFault(nil)
	}
	t.log.Error("terminal: journal", "err", err)
	return result{"journal-fault", retail.ReadOnly(), retail.SignalAttention}
}
