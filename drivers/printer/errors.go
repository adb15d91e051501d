package printer

import (
	"errors"
	"fmt"

	"github.com/packterm/pos/drivers/printer/escpos"
)

// Fault kinds, matched with errors.Is on a *FaultError.
var (
	ErrPaperEnd     = errors.New("paper end")
	ErrCoverOpen    = errors.New("cover open")
	ErrOffline      = errors.New("printer offline")
	ErrPrinterError = errors.New("printer error")
	ErrNoResponse   = errors.New("printer not responding")
)

// FaultError says why receipts could not print. They are kept in the spool (Pending of them)
// and print when the fault clears.
type FaultError struct {
	Kind        error         // one of the Err* kinds above
	Status      escpos.Status // last status read (zero when there was no reply)
	Err         error         // underlying I/O error, if any
	Pending     int           // receipts waiting in the spool
	Interrupted bool          // the fault stopped a receipt in the middle; it will print whole again
}

func (e *FaultError) Error() string {
	s := fmt.Sprintf("printer: %v (%s), %d receipt(s) kept in spool", e.Kind, e.Status, e.Pending)
	if e.Interrupted {
		s += ", interrupted receipt will print again"
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap gives errors.Is access to the kind and the I/O cause.
func (e *FaultError) Unwrap() []error {
	if e.Err != nil {
		return []error{e.Kind, e.Err}
	}
	return []error{e.Kind}
}

// kindOf names the fault that stops printing in s (nil when ready).
func kindOf(s escpos.Status) error {
	switch {
	case s.PaperEnd || s.PaperStop:
		return ErrPaperEnd
	case s.CoverOpen:
		return ErrCoverOpen
	case s.Error || s.CutterError || s.Unrecoverable || s.AutoRecover:
		return ErrPrinterError
	case s.Offline:
		return ErrOffline
	}
	return nil
}
