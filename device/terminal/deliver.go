package terminal

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/packterm/pos/device/retail"
	"github.com/packterm/pos/drivers/printer"
	"github.com/packterm/pos/internal/atomicfile"
	"github.com/packterm/pos/validate/journal"
)

// deliver finishes a recorded operation: its receipts are queued in the printer's durable
// spool (already, when recordWithReceipts kept them; at start, rebuilt from the record
// unless still there) and print; a fault waits until it clears (the record stays, nothing
// is redone); then the drawer opens (payouts) and the operation is marked done. Receipts
// that cannot be kept are a storage fault: the drawer stays shut and the screen says
// nothing was printed until they are kept.
type deliver struct {
	rec      journal.Record
	receipts []printer.Receipt
	queued   bool            // the receipts are in the spool's queue
	staged   *printer.Staged // staged, their queuing failed: queued again first
	drawer   bool
	done     State
}

func (deliver) Name() string { return "deliver" }

// delivery is how a recorded operation with its receipts goes on.
func delivery(r recorded, drawer bool, done State) deliver {
	return deliver{rec: r.rec, receipts: r.receipts, queued: r.staged == nil, staged: r.staged, drawer: drawer, done: done}
}

func (s deliver) Run(ctx context.Context, t *Terminal) State {
	if !s.queued {
		if err := t.queue(&s); err != nil {
			t.log.Error("terminal: receipts of a recorded operation cannot be kept: waiting for the storage", "seq", s.rec.Seq, "err", err)
			return fault{kind: retail.FaultStorage, pending: true, then: s}
		}
	}
	var fe *printer.FaultError
	_, err := t.parts.Printer.Flush(ctx)
	if err != nil && !errors.As(err, &fe) {
		t.log.Error("terminal: spool", "err", err)
		if errors.Is(err, printer.ErrSpool) { // printed, but its file stays: it would print again
			return fault{kind: retail.FaultStorage, pending: true, then: s}
		}
	}
	if len(s.receipts) > 0 && s.rec.Kind != journal.KindReprint {
		last := s.receipts[len(s.receipts)-1]
		t.last = &last
	}
	finish := finishOp{rec: s.rec, drawer: s.drawer, done: s.done}
	if fe != nil {
		return fault{kind: faultOf(fe), pending: true, then: finish}
	}
	return finish
}

// queue puts the receipts of s in the spool's queue: those staged, or those not there yet
// (a restart: rebuilt from the record), staged and queued now.
func (t *Terminal) queue(s *deliver) error {
	if s.staged == nil {
		queued, err := t.parts.Printer.Pending()
		if err != nil {
			t.log.Error("terminal: spool", "err", err)
		}
		var missing []printer.Receipt
		for _, r := range s.receipts {
			if !spooled(queued, r.ID) {
				missing = append(missing, r)
			}
		}
		if len(missing) == 0 {
			s.queued = true
			return nil
		}
		if s.staged, err = t.parts.Printer.Stage(missing...); err != nil {
			return err
		}
	}
	if _, err := s.staged.Commit(); err != nil {
		return err
	}
	s.staged, s.queued = nil, true
	return nil
}

func spooled(list []printer.Spooled, id string) bool {
	for _, s := range list {
		if s.ID == id {
			return true
		}
	}
	return false
}

// finishOp opens the drawer for a payout, marks the operation done and shows its result.
type finishOp struct {
	rec    journal.Record
	drawer bool
	done   State
}

func (finishOp) Name() string { return "finish" }

func (s finishOp) Run(ctx context.Context, t *Terminal) State {
	if s.drawer {
		if err := t.parts.Drawer.Open(ctx); err != nil {
			t.log.Error("terminal: drawer", "err", err)
		}
	}
	if err := t.markDone(s.rec.Seq); err != nil {
		t.log.Error("terminal: state file not written: waiting for the storage", "err", err)
		s.drawer = false // opened already
		return fault{kind: retail.FaultStorage, pending: true, then: s}
	}
	if s.done == nil {
		return idle{}
	}
	return s.done
}

// fault shows a hardware fault and retries until it clears, then resumes with then.
type fault struct {
	kind    retail.Fault
	pending bool
	then    State
}

func (fault) Name() string { return "fault" }

func (s fault) Run(ctx context.Context, t *Terminal) State {
	t.observer().Fault(FaultPart(s.kind))
	t.show(retail.FaultScreen(s.kind, s.pending))
	t.signal(ctx, retail.SignalAttention)
	if s.kind == retail.FaultClock {
		t.readyOne.Do(func() { close(t.ready) }) // the screen at rest of a terminal started on a clock set back
	}
	for {
		ev, ok := t.wait(ctx, t.cfg.PollInterval)
		if !ok && ctx.Err() != nil {
			return nil
		}
		if ok {
			switch ev.Kind {
			case EvTamper:
				if t.tampered() {
					return tamperLock{then: s}
				}
				continue
			case EvScannerGone, EvScannerBack:
				t.setScanner(ev.Kind == EvScannerBack)
			case EvPrinter:
			default:
				continue // nothing else is taken until the fault clears
			}
		}
		if s.kind == retail.FaultScanner {
			if t.scannerPresent() {
				return s.then
			}
			continue
		}
		if s.kind == retail.FaultClock {
			if !t.clockWrong() {
				t.log.Info("terminal: the clock is set right")
				return s.then
			}
			continue
		}
		if s.kind == retail.FaultStorage {
			if t.storageOK() {
				t.log.Info("terminal: storage takes writes again")
				return s.then
			}
			continue
		}
		if s.kind == retail.FaultDisplay {
			if t.reviveDisplay(retail.FaultScreen(s.kind, s.pending)) {
				return s.then
			}
			continue
		}
		k, pending, ok := t.printerFault(ctx)
		if !ok {
			if k != s.kind {
				s.kind = k
				t.show(retail.FaultScreen(s.kind, s.pending || pending))
			}
			continue
		}
		t.log.Info("terminal: printer fault cleared")
		return s.then
	}
}

func (t *Terminal) scannerPresent() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.scanner
}

func faultOf(fe *printer.FaultError) retail.Fault {
	switch {
	case errors.Is(fe, printer.ErrPaperEnd):
		return retail.FaultPaper
	case errors.Is(fe, printer.ErrCoverOpen):
		return retail.FaultCover
	case errors.Is(fe, printer.ErrOffline), errors.Is(fe, printer.ErrNoResponse):
		return retail.FaultOffline
	}
	return retail.FaultPrinter
}

// The state file: the sequence of the last operation finished (receipts spooled, drawer
// opened), written after each; at start a later money record is finished again.
const doneFile = "done.seq"

func (t *Terminal) markDone(seq uint64) error {
	path := filepath.Join(t.cfg.StateDir, doneFile)
	if err := atomicfile.WriteFile(path, []byte(strconv.FormatUint(seq, 10)+"\n"), 0o600); err != nil {
		return fmt.Errorf("terminal: state: %w", err)
	}
	return nil
}

// lastDone reads the state file (0 when absent or damaged: everything is then redone from
// the journal's last record, which is safe: a receipt may print twice, a payout never).
func (t *Terminal) lastDone() uint64 {
	b, err := os.ReadFile(filepath.Join(t.cfg.StateDir, doneFile))
	if err != nil {
		return 0
	}
	return parseDone(b)
}

// parseDone reads the state file's sequence; anything but one decimal number is 0.
func parseDone(b []byte) uint64 {
	if len(b) > 32 {
		return 0
	}
	n, err := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64)
	if err != nil {
		return 0
	}
	return n
}
