package journal

import (
	"crypto/ed25519"
	"strconv"
	"time"

	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/ledger"
)

// Entry is what the caller appends; the journal fills in the rest of Record.
type Entry struct {
	Kind     Kind
	Time     time.Time            // wall time; zero means "now" from the journal's clock
	Ticket   codes.TicketID       // zero value when there is none; Position 0 for a whole pack (sale)
	Game     int                  // the ticket's game (its position, 1..8); 0 for none. Set by Append from Ticket
	Amount   int64                // cents (sale price, payout, claim)
	Receipts []string             // receipt ids printed for this record
	Code     codes.ValidationCode // full validation code: KindPayout only (zero: none; rejected on any other kind)
	Reason   string               // short machine reason for refusals/locks ("forged", "void-pack", ...)
	Detail   string               // free text for installs/config/locks
}

// Record is one journal record: the entry, where it stands in the chain and its hash.
type Record struct {
	Entry
	Terminal string   // terminal id
	Seq      uint64   // per-terminal, 1, 2, 3 … with no gap
	Boot     uint64   // start counter of the journal (monotonic order across restarts: (Boot, Seq))
	Prev     [32]byte // previous record's hash (zero for Seq 1)
	Hash     [32]byte // this record's hash (over its canonical encoding, Prev included)

	// Version is the record's encoding: RecordVersion (2, signed: every record written
	// now) or RecordVersionUnsigned (1, read only: written before records were signed).
	// 0 in a record being built means RecordVersion.
	Version uint8
	Key     ledger.KeyID                // id of the device key that signed Hash (version 2; zero on version 1)
	Sig     [ed25519.SignatureSize]byte // the device key's signature of Hash (version 2; zero on version 1)
}

// ID is the record's stable id "<terminal>/<seq>" (the fleet uses it as message id, so
// publishing a record twice is harmless).
func (r Record) ID() string { return r.Terminal + "/" + strconv.FormatUint(r.Seq, 10) }

// Limits of an entry's fields (the decoder enforces them too).
const (
	MaxTerminalLen = 64
	MaxReceipts    = 8
	MaxReceiptLen  = 64
	MaxReasonLen   = 64
	MaxDetailLen   = 512
	MaxCodeLen     = 64
	MaxAmount      = 1 << 40 // cents; far above any prize, keeps sums exact
)

// HasCode reports whether the entry holds a validation code (a payout's).
func (e Entry) HasCode() bool { return e.Code != (codes.ValidationCode{}) }

// CodeText is the validation code's canonical text as the record stores and the exports
// write it, "" when there is none.
func (e Entry) CodeText() string {
	if !e.HasCode() {
		return ""
	}
	return e.Code.String()
}

// hasTicket reports whether the entry names a ticket or a pack.
func (e Entry) hasTicket() bool { return e.Ticket != (codes.TicketID{}) }

// day is the record's local day "2006-01-02" (the zone the record was written in).
func (r Record) day() string { return r.Time.Format(time.DateOnly) }
