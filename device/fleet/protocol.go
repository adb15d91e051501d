package fleet

import (
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/packterm/pos/internal/strictjson"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/journal"
)

// Stream, bucket and subject names (docs/fleet.md, "Subjects").
const (
	JournalStream  = "JOURNAL"   // every terminal's records, on journal.<terminal>.<kind>
	ClaimsBucket   = "claims"    // one key per ticket: t.<block>.<pack>.<position>
	ConflictBucket = "conflicts" // one key per terminal and ticket: c.<terminal>.<block>.<pack>.<position>
	StatusBucket   = "status"    // one key per retailer: r.<retailer>, the signed status list
	RefusalStream  = "REFUSALS"  // every claim the service refused, on refusals.<terminal>

	ClaimPrefix     = "fleet.claim."     // + terminal: claim requests
	ConflictsPrefix = "fleet.conflicts." // + terminal: "which conflicts name me?"
	StatusPrefix    = "fleet.status."    // + terminal: "my retailer's status list" (body: retailer)
	InboxPrefix     = "_INBOX_"          // + terminal: the terminal's reply subjects
	RefusalPrefix   = "refusals."        // + terminal: the service's record of a refused claim

	// ErrorHeader carries the service's error on a reply (operator diagnostics, English).
	ErrorHeader = "Fleet-Error"

	maxMessage = 4 << 10 // claim and conflict messages are far smaller
)

// JournalSubject is the subject of a record: journal.<terminal>.<kind>.
func JournalSubject(r *journal.Record) string {
	return "journal." + r.Terminal + "." + r.Kind.String()
}

// MsgID is a record's message id on the journal stream: its id "<terminal>/<seq>" and
// the first 8 bytes of its hash. The same record published twice is stored once; a
// different record under the same id (a terminal whose journal was reset or replaced
// starts again at 1) is stored too, never dropped as a duplicate, and the report shows
// the fork.
func MsgID(r *journal.Record) string { return r.ID() + "#" + hex.EncodeToString(r.Hash[:8]) }

// ClaimKey is the claims bucket key of a ticket.
func ClaimKey(id codes.TicketID) string {
	return fmt.Sprintf("t.%d.%d.%d", id.Block, id.Pack, id.Position)
}

// ConflictKey names a conflict over ticket id as seen from terminal (a terminal's record
// of the conflicts it has journalled).
func ConflictKey(terminal string, id codes.TicketID) string {
	return fmt.Sprintf("c.%s.%d.%d.%d", terminal, id.Block, id.Pack, id.Position)
}

// ConflictEntryKey is the conflicts bucket key of the conflict over ticket id between
// terminal (the side it is stored for) and other: ConflictKey(terminal, id) + "." +
// other. The bucket is write-once: each pair's conflict is stored once per side, and a
// third terminal paying the same ticket gets keys of its own.
func ConflictEntryKey(terminal, other string, id codes.TicketID) string {
	return ConflictKey(terminal, id) + "." + other
}

// ErrMessage: a fleet message that does not decode or breaks the protocol's rules.
var ErrMessage = errors.New("bad fleet message")

func badMessage(format string, args ...any) error {
	return fmt.Errorf("fleet: %s: %w", fmt.Sprintf(format, args...), ErrMessage)
}

// CheckTerminal checks a terminal id as the journal does (it becomes a subject token).
func CheckTerminal(id string) error {
	if id == "" || len(id) > journal.MaxTerminalLen {
		return badMessage("terminal id: want 1..%d characters", journal.MaxTerminalLen)
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return badMessage("terminal id %.20q: letters, digits, '-' and '_' only", id)
		}
	}
	return nil
}

// ClaimRequest is what a terminal sends on fleet.claim.<terminal>. The terminal's id is
// the subject's last token (the server's permissions guarantee it), never a field. Code is
// the ticket's full validation code: the ticket is being paid, so its code protects
// nothing any more; the service checks it against the block's ledger and takes the amount
// from there (Amount is only cross-checked). Never log it.
type ClaimRequest struct {
	Ticket      codes.TicketID `json:"ticket"`
	Code        string         `json:"code,omitempty"`        // the validation code's 25 characters
	Amount      int64          `json:"amount"`                // cents, as the terminal's ledger says
	At          time.Time      `json:"at"`                    // when the terminal asks (or paid, if unconfirmed)
	Unconfirmed bool           `json:"unconfirmed,omitempty"` // already paid offline: a refusal is a conflict
	Record      string         `json:"record,omitempty"`      // the payout record, when already paid
	// Epoch is the terminal's journal's (journal.Journal.Epoch): stored with the claim, it
	// tells the terminal's own claim of a ticket under this journal (a retry: pay) from
	// one under an earlier journal (paid before a reset or a wipe: refuse). Empty from a
	// terminal that does not know it.
	Epoch string `json:"epoch,omitempty"`
}

// Claim is a claim as the claims bucket holds it: who, when, which record.
type Claim struct {
	Terminal    string    `json:"terminal"`
	At          time.Time `json:"at"`
	Amount      int64     `json:"amount"`
	Unconfirmed bool      `json:"unconfirmed,omitempty"` // claimed after an offline payout
	Record      string    `json:"record,omitempty"`
	Epoch       string    `json:"epoch,omitempty"` // the claimant's journal (ClaimRequest.Epoch); empty in older claims
}

// Claim results.
const (
	ResultWon   = "won"   // the claim is this terminal's now
	ResultYours = "yours" // it already was (a retry, or a reconnecting terminal)
	ResultTaken = "taken" // another terminal holds it: Holder
	ResultError = "error" // the service could not decide (store unavailable): Error
	// ResultRefused: the claim does not prove the ticket (Reason); nothing is stored.
	ResultRefused = "refused"
)

// Reasons of a refused claim (ClaimReply.Reason, Refusal.Reason).
const (
	RefusedWrongCode    = "wrong-code"    // no code, a code of another ticket, or not the ticket's code per the ledger
	RefusedLoser        = "loser"         // the ledger says the ticket does not win
	RefusedAmount       = "amount"        // the amount asked is not the ledger's prize
	RefusedNotDelivered = "not-delivered" // the pack is not delivered to the claimant's retailer (or no list)
	RefusedUnknownBlock = "unknown-block" // the service holds no ledger of the ticket's block
	RefusedRateLimited  = "rate-limited"  // the terminal claims faster than its limit: try again later
	RefusedUnregistered = "unregistered"  // the terminal is not in the registry
	// RefusedJournalUnverified: a record the terminal published failed the fleet's
	// witness (unsigned, bad signature or re-chained): it is paid nothing until the
	// operator acts.
	RefusedJournalUnverified = "journal-unverified"
)

// Reasons of the witness's findings in the refusals stream (Refusal.Reason, with Record:
// the record that failed; never a claim's reply).
const (
	WitnessUnsigned     = "unsigned-record" // unsigned record from a terminal whose device key is registered
	WitnessBadSignature = "bad-signature"   // not signed by the terminal's registered device key
	WitnessRechained    = "rechained"       // its prev is not the hash of the previous record the fleet holds
)

// refusedReasons are the reasons a reply may carry.
var refusedReasons = map[string]bool{RefusedWrongCode: true, RefusedLoser: true, RefusedAmount: true,
	RefusedNotDelivered: true, RefusedUnknownBlock: true, RefusedRateLimited: true, RefusedUnregistered: true,
	RefusedJournalUnverified: true, WitnessUnsigned: true, WitnessBadSignature: true, WitnessRechained: true,
	RefusedRestored: true}

// Transient reports whether a refusal may not hold later: a rate limit, or a block whose
// ledger the operator has not published to the service yet.
func Transient(reason string) bool {
	return reason == RefusedRateLimited || reason == RefusedUnknownBlock
}

// ClaimReply is the claim service's answer.
type ClaimReply struct {
	Result string `json:"result"`
	Holder Claim  `json:"holder,omitzero"`  // the claim as stored (won, yours, taken)
	Reason string `json:"reason,omitempty"` // refused: why (Refused…)
	Error  string `json:"error,omitempty"`  // error: what failed; refused: the detail
}

// Refusal is the service's durable record of a refused claim (stream REFUSALS, subject
// refusals.<terminal>), for the operator. It never holds the validation code.
type Refusal struct {
	At          time.Time      `json:"at"` // the service's time
	Terminal    string         `json:"terminal"`
	Retailer    uint32         `json:"retailer,omitempty"`
	Ticket      codes.TicketID `json:"ticket"`
	Reason      string         `json:"reason"`
	Detail      string         `json:"detail,omitempty"`
	CodeGiven   bool           `json:"code_given,omitempty"` // the request carried a code (never stored)
	Amount      int64          `json:"amount"`               // asked, cents
	Lot         int64          `json:"lot,omitempty"`        // the ledger's prize, when known
	Unconfirmed bool           `json:"unconfirmed,omitempty"`
	Record      string         `json:"record,omitempty"`
	// Count: for rate-limited, the refusals this record stands for (the service records
	// one per terminal and interval while a flood lasts).
	Count int `json:"count,omitempty"`
}

// Conflict is a ticket paid at two terminals: Holder holds the claim, Other paid it
// offline and claimed it too late.
type Conflict struct {
	Ticket codes.TicketID `json:"ticket"`
	Holder Claim          `json:"holder"`
	Other  Claim          `json:"other"`
}

// decodeJSON decodes a bounded JSON message strictly into v (internal/strictjson: no
// duplicate key, no key in another case, nothing unknown, nothing after it).
func decodeJSON(b []byte, v any, what string) error {
	if len(b) > maxMessage {
		return badMessage("%s: %d bytes, at most %d", what, len(b), maxMessage)
	}
	if err := strictjson.Unmarshal(b, v); err != nil {
		return badMessage("%s: %v", what, err)
	}
	return nil
}

func (c *Claim) check() error {
	if err := CheckTerminal(c.Terminal); err != nil {
		return err
	}
	if c.Amount < 0 || c.Amount > journal.MaxAmount {
		return badMessage("claim: amount %d out of range", c.Amount)
	}
	if len(c.Record) > journal.MaxTerminalLen+21 {
		return badMessage("claim: record id too long")
	}
	return checkEpoch(c.Epoch)
}

// DecodeClaimRequest decodes and checks a claim request.
func DecodeClaimRequest(b []byte) (ClaimRequest, error) {
	var r ClaimRequest
	if err := decodeJSON(b, &r, "claim request"); err != nil {
		return ClaimRequest{}, err
	}
	if err := r.Ticket.Validate(); err != nil {
		return ClaimRequest{}, badMessage("claim request: ticket: %v", err)
	}
	if r.Amount < 0 || r.Amount > journal.MaxAmount || len(r.Record) > journal.MaxTerminalLen+21 || len(r.Code) > journal.MaxCodeLen {
		return ClaimRequest{}, badMessage("claim request: field out of range")
	}
	if err := checkEpoch(r.Epoch); err != nil {
		return ClaimRequest{}, err
	}
	return r, nil
}

// DecodeRefusal decodes and checks a record of the refusals stream.
func DecodeRefusal(b []byte) (Refusal, error) {
	var r Refusal
	if err := decodeJSON(b, &r, "refusal"); err != nil {
		return Refusal{}, err
	}
	if err := CheckTerminal(r.Terminal); err != nil {
		return Refusal{}, err
	}
	if !refusedReasons[r.Reason] {
		return Refusal{}, badMessage("refusal: reason %.20q", r.Reason)
	}
	if r.Amount < 0 || r.Amount > journal.MaxAmount || r.Lot < 0 || r.Lot > journal.MaxAmount || r.Count < 0 ||
		len(r.Record) > journal.MaxTerminalLen+21 || len(r.Detail) > journal.MaxDetailLen {
		return Refusal{}, badMessage("refusal: field out of range")
	}
	return r, nil
}

// DecodeClaimReply decodes and checks a claim reply.
func DecodeClaimReply(b []byte) (ClaimReply, error) {
	var r ClaimReply
	if err := decodeJSON(b, &r, "claim reply"); err != nil {
		return ClaimReply{}, err
	}
	switch r.Result {
	case ResultWon, ResultYours, ResultTaken:
		if err := r.Holder.check(); err != nil {
			return ClaimReply{}, err
		}
	case ResultRefused:
		if !refusedReasons[r.Reason] {
			return ClaimReply{}, badMessage("claim reply: refused, reason %.20q", r.Reason)
		}
	case ResultError:
	default:
		return ClaimReply{}, badMessage("claim reply: result %.20q", r.Result)
	}
	return r, nil
}

// DecodeClaim decodes a value of the claims bucket.
func DecodeClaim(b []byte) (Claim, error) {
	var c Claim
	if err := decodeJSON(b, &c, "claim"); err != nil {
		return Claim{}, err
	}
	return c, c.check()
}

// DecodeConflicts decodes the answer to a conflicts request (a JSON array).
func DecodeConflicts(b []byte) ([]Conflict, error) {
	var cs []Conflict
	if len(b) > 256*maxMessage {
		return nil, badMessage("conflicts: %d bytes", len(b))
	}
	if err := strictjson.Unmarshal(b, &cs); err != nil {
		return nil, badMessage("conflicts: %v", err)
	}
	for _, c := range cs {
		if err := c.check(); err != nil {
			return nil, err
		}
	}
	return cs, nil
}

// DecodeConflict decodes a value of the conflicts bucket.
func DecodeConflict(b []byte) (Conflict, error) {
	var c Conflict
	if err := decodeJSON(b, &c, "conflict"); err != nil {
		return Conflict{}, err
	}
	if err := c.check(); err != nil {
		return Conflict{}, err
	}
	return c, nil
}

func (c *Conflict) check() error {
	if err := c.Ticket.Validate(); err != nil {
		return badMessage("conflict: ticket: %v", err)
	}
	if err := c.Holder.check(); err != nil {
		return err
	}
	return c.Other.check()
}

// DecodeJournalMsg decodes a message of the JOURNAL stream: the record's canonical
// encoding (hash checked) on journal.<terminal>.<kind>. The subject's terminal is what
// the server let the publisher write under; a record naming another terminal, or another
// kind than its subject, is refused (a terminal posing as another).
func DecodeJournalMsg(subject string, data []byte) (journal.Record, error) {
	parts := strings.Split(subject, ".")
	if len(parts) != 3 || parts[0] != "journal" {
		return journal.Record{}, badMessage("journal subject %.80q", subject)
	}
	r, err := journal.DecodeRecord(data)
	if err != nil {
		return journal.Record{}, fmt.Errorf("fleet: journal message on %.80q: %w", subject, err)
	}
	if r.Terminal != parts[1] {
		return journal.Record{}, badMessage("record %s published under terminal %.64q", r.ID(), parts[1])
	}
	if r.Kind.String() != parts[2] {
		return journal.Record{}, badMessage("record %s (%s) published as %.20q", r.ID(), r.Kind, parts[2])
	}
	return r, nil
}
