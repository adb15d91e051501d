package ledger

import (
	"errors"
	"fmt"

	"github.com/packterm/pos/internal/regularfile"
)

// Sentinel errors. Every failure wraps exactly one of them (test with errors.Is); the
// message around it says what failed ("ledger: …: <sentinel>").
var (
	// Trust and integrity: the file is refused, the installed one stays.
	ErrNoTrustedKey  = errors.New("no trusted operator key")
	ErrUntrustedKey  = errors.New("signed by a key that is not trusted")
	ErrBadSignature  = errors.New("bad signature")
	ErrHash          = errors.New("entries do not match the signed hash tree")
	ErrFormat        = errors.New("malformed file")
	ErrFormatVersion = errors.New("unknown format version")
	// ErrFormat1 is a format 1 ledger (24-bit checks): refused, never migrated; the
	// block must be regenerated. It wraps ErrFormatVersion.
	ErrFormat1 = fmt.Errorf("the block must be regenerated in format %d (posctl ledger gen): %w", FormatVersion, ErrFormatVersion)
	// ErrNotRegular: a FIFO, device, socket or directory given as a file is refused
	// before anything is read from it.
	ErrNotRegular = regularfile.ErrNotRegular
	// ErrFault: a mapped ledger was truncated or rewritten under the reader (the access
	// faulted); the ledger must be reopened or reinstalled.
	ErrFault = errors.New("mapped file truncated or changed while in use")
	// ErrTampered: the entries a lookup read no longer match the hash tree verified at
	// open (the installed file was rewritten in place under the mapping). Nothing is
	// decided on them; the ledger must be reinstalled.
	ErrTampered     = errors.New("ledger changed on disk since it was verified")
	ErrOlderVersion = errors.New("older than the installed version")
	ErrRetailer     = errors.New("pack status list is for another retailer")
	// ErrDuplicateBlock: two installed ledgers of one block.
	ErrDuplicateBlock = errors.New("two ledgers of one block")

	// Lookups: what the terminal answers for a code it refuses.
	ErrUnknownBlock = errors.New("unknown block")
	ErrForged       = errors.New("forged code or wrong secret")
	ErrOutOfRange   = errors.New("ticket out of range")
	ErrClosed       = errors.New("ledger closed")

	// Keys.
	ErrKeyFile = errors.New("bad key file")
)
