package journal

import (
	"errors"
	"fmt"
)

// Sentinel errors, matched with errors.Is.
var (
	// ErrReadOnly: the journal is in its no-payout state (see Health) or was opened read-only.
	ErrReadOnly = errors.New("journal is read-only")
	// ErrCorrupt: the journal cannot prove what it recorded (chain, checkpoint, index or file damaged).
	ErrCorrupt = errors.New("journal is corrupt")
	// ErrDuplicatePayout: the ticket of a payout entry was already paid.
	ErrDuplicatePayout = errors.New("ticket already paid")
	// ErrDuplicateSale: the pack of a sale entry was already sold here.
	ErrDuplicateSale = errors.New("pack already sold")
	// ErrInvalidEntry: an entry that the journal refuses to record (field out of range, code on a kind that must not hold one).
	ErrInvalidEntry = errors.New("invalid entry")
	// ErrFormat: a record or checkpoint encoding that does not decode.
	ErrFormat = errors.New("bad encoding")
	// ErrInUse: another process holds the journal file.
	ErrInUse = errors.New("journal in use by another process")
	// ErrBadSignature: a record's signature does not verify with the device key (the record
	// changed after it was written, or another key signed it).
	ErrBadSignature = errors.New("record signature does not verify")
	// ErrUnsigned: a record without a signature of its own (encoding version 1, written
	// before every record was signed).
	ErrUnsigned = errors.New("record is not signed")
	// ErrUnvouched: the journal is intact but not vouched for: the key its signatures were
	// checked with is not a trusted one (it was found next to the journal), or some records
	// are covered by no signature at all. Report.Vouched returns it.
	ErrUnvouched = errors.New("journal not vouched for by a trusted device key")
)

// CorruptError names the first record (or part of the file) that does not verify. It wraps
// ErrCorrupt.
type CorruptError struct {
	Seq    uint64 // first bad record's sequence number; 0 when the damage is not in a record
	Reason string // what is wrong, in English, for the technician
}

func (e *CorruptError) Error() string {
	if e.Seq == 0 {
		return fmt.Sprintf("journal: corrupt: %s", e.Reason)
	}
	return fmt.Sprintf("journal: corrupt at record %d: %s", e.Seq, e.Reason)
}

func (e *CorruptError) Unwrap() error { return ErrCorrupt }

func corrupt(seq uint64, format string, args ...any) error {
	return &CorruptError{Seq: seq, Reason: fmt.Sprintf(format, args...)}
}

func invalid(format string, args ...any) error {
	return fmt.Errorf("journal: %s: %w", fmt.Sprintf(format, args...), ErrInvalidEntry)
}

func badFormat(format string, args ...any) error {
	return fmt.Errorf("journal: decode: %s: %w", fmt.Sprintf(format, args...), ErrFormat)
}
