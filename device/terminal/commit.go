package terminal

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/packterm/pos/device/retail"
	"github.com/packterm/pos/drivers/printer"
	"github.com/packterm/pos/validate/journal"
)

// storageError: the receipts of an operation could not be kept in the printer's spool, or
// the terminal's state cannot be written (a full or read-only filesystem). Nothing was
// recorded: the operation is not done.
type storageError struct{ err error }

func (e *storageError) Error() string { return "terminal: storage: " + e.err.Error() }
func (e *storageError) Unwrap() error { return e.err }

// recorded is an operation recorded with its receipts: the receipts are queued in the
// spool, or, when queuing failed after the record was committed, staged (deliver queues
// them again).
type recorded struct {
	rec      journal.Record
	receipts []printer.Receipt
	staged   *printer.Staged // not nil: staged, not yet queued
}

// maxPrepare bounds the attempts when another writer (the fleet client, the maintenance
// link) appends between the preparation of a record and its commit.
const maxPrepare = 4

// recordWithReceipts records e with its receipts (render makes them from the record, one
// per letter of the receipt ids), durable in this order: the receipts are staged in the
// printer's spool (written, fsynced: their space held, the headroom for the journal left)
// before the record is committed, and queued to print (renamed) after. So a payout is never
// recorded without its receipts kept, and a crash before the commit leaves staged receipts
// that the spool removes at start: a receipt of a record never written never prints.
// A failure to keep the receipts is a *storageError (nothing recorded); a journal refusal
// (ErrDuplicatePayout, ErrDuplicateClaim, ErrDuplicateSale, ErrReadOnly) is returned as
// it is. A record committed whose receipts could not be queued is returned with its
// staged receipts and no error: deliver queues them.
func (t *Terminal) recordWithReceipts(e journal.Entry, letters []string, render func(journal.Record) []printer.Receipt) (recorded, error) {
	if err := t.stateWritable(); err != nil {
		return recorded{}, &storageError{err}
	}
	for try := 1; ; try++ {
		seq := t.nextSeq()
		e.Receipts = nil
		for _, l := range letters {
			e.Receipts = append(e.Receipts, t.receiptID(seq, l))
		}
		p, err := t.data.Journal.Prepare(e)
		if err != nil {
			return recorded{}, err
		}
		if p.Seq != seq {
			if try < maxPrepare {
				continue
			}
			return recorded{}, fmt.Errorf("terminal: record %d prepared for %d: %w", p.Seq, seq, journal.ErrHeadMoved)
		}
		rs := render(p)
		st, err := t.parts.Printer.Stage(rs...)
		if err != nil {
			return recorded{}, &storageError{err}
		}
		rec, err := t.data.Journal.Commit(p)
		if errors.Is(err, journal.ErrHeadMoved) && try < maxPrepare {
			st.Discard()
			continue
		}
		if err != nil {
			st.Discard()
			return recorded{}, err
		}
		t.observer().Recorded(rec)
		if t.data.Fleet != nil {
			t.data.Fleet.Notify() // published at once (see record)
		}
		if _, err := st.Commit(); err != nil {
			t.log.Error("terminal: receipts of a recorded operation not queued: retried", "seq", rec.Seq, "err", err)
			return recorded{rec: rec, receipts: rs, staged: st}, nil
		}
		return recorded{rec: rec, receipts: rs}, nil
	}
}

// stateWritable checks that the state directory takes a write (the state file is written
// once the operation is done).
func (t *Terminal) stateWritable() error {
	path := filepath.Join(t.cfg.StateDir, ".probe")
	if err := os.WriteFile(path, []byte("probe\n"), 0o600); err != nil {
		return fmt.Errorf("terminal: state directory: %w", err)
	}
	return nil
}

// storageOK reports whether the spool and the state directory take writes again.
func (t *Terminal) storageOK() bool {
	err := errors.Join(t.parts.Printer.CheckSpool(), t.stateWritable())
	if err != nil {
		t.log.Debug("terminal: storage still failing", "err", err)
		return false
	}
	return true
}

// storageFault is where an operation whose receipts could not be kept leads: nothing was
// recorded; the fault screen, the red LED and the buzzer say it, and once the storage takes
// writes again the terminal resumes with then (the offer again, or idle).
func (t *Terminal) storageFault(err error, then State) State {
	t.log.Error("terminal: receipts cannot be kept: nothing recorded until the storage takes writes again", "err", err)
	if then == nil {
		then = idle{}
	}
	return fault{kind: retail.FaultStorage, then: then}
}
