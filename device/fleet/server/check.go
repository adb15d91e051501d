package server

import (
	"context"
	"errors"
	"fmt"

	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/ledger"
)

// LedgerSource answers validation codes from the operator's block ledgers (*Ledgers, or
// a *ledger.Set): ledger.ErrUnknownBlock for a block it holds no ledger of,
// ledger.ErrForged or ledger.ErrOutOfRange for a code that is not a ticket's.
type LedgerSource interface {
	Lookup(code codes.ValidationCode) (ledger.Result, error)
}

// StatusSource gives a retailer's verified pack status list; ErrNoStatus (wrapped) when
// there is none, or none that verifies.
type StatusSource interface {
	Status(ctx context.Context, retailer uint32) (*ledger.StatusList, error)
}

// ErrNoStatus: no trusted pack status list for the retailer (none published, or one
// that does not verify against the operator's keys): nothing is delivered to it.
var ErrNoStatus = errors.New("no trusted pack status list")

// Checker decides whether a claim proves its ticket: the claimant's retailer had the
// pack delivered, the code is the ticket's and wins per the operator's ledger, and the
// amount asked is the ledger's prize.
type Checker struct {
	Retailer func(terminal string) (uint32, bool) // the registry
	Ledgers  LedgerSource
	Status   StatusSource
	// Unverified, when set, says whether a record the terminal published failed the
	// fleet's witness (Witness.Unverified): every claim of such a terminal is refused
	// journal-unverified. Nil: no witness is asked.
	Unverified func(terminal string) (detail string, bad bool)
}

// Verdict is a claim's check: Reason empty when the claim proves the ticket, Lot the
// ledger's prize (cents, when known); Err when the check could not be made (a store out
// of reach): the claim is undecided, not refused.
type Verdict struct {
	Reason   string // fleet.Refused…, or "" when the claim may be stored
	Detail   string // for the operator's record (English; never the code)
	Retailer uint32
	Lot      int64
	Err      error
}

func refuse(reason, format string, args ...any) Verdict {
	return Verdict{Reason: reason, Detail: fmt.Sprintf(format, args...)}
}

// Check checks terminal's claim req. The order matters for what a refusal tells a
// claimant: a terminal whose journal failed the witness is refused first, whatever it
// claims; then a code is required, then the retailer's delivery (another retailer's
// ticket is refused as not delivered, whatever its code, so the answer says nothing of
// it), then the ledger.
func (c *Checker) Check(ctx context.Context, terminal string, req fleet.ClaimRequest) Verdict {
	if c.Unverified != nil {
		if detail, bad := c.Unverified(terminal); bad {
			return refuse(fleet.RefusedJournalUnverified, "%s", detail)
		}
	}
	if req.Code == "" {
		return refuse(fleet.RefusedWrongCode, "no validation code")
	}
	code, err := codes.ParseValidation(req.Code)
	if err != nil {
		return refuse(fleet.RefusedWrongCode, "validation code does not parse: %v", errors.Unwrap(err))
	}
	if code.ID() != req.Ticket {
		return refuse(fleet.RefusedWrongCode, "the code is of ticket %v", code.ID())
	}
	retailer, ok := c.Retailer(terminal)
	if !ok {
		return refuse(fleet.RefusedUnregistered, "terminal %s is not in the registry", terminal)
	}
	v := c.delivered(ctx, retailer, req.Ticket)
	if v.Reason != "" || v.Err != nil {
		return v
	}
	r, err := c.Ledgers.Lookup(code)
	switch {
	case errors.Is(err, ledger.ErrUnknownBlock):
		v.Reason, v.Detail = fleet.RefusedUnknownBlock, fmt.Sprintf("no ledger of block %d", req.Ticket.Block)
	case errors.Is(err, ledger.ErrForged), errors.Is(err, ledger.ErrOutOfRange):
		v.Reason, v.Detail = fleet.RefusedWrongCode, "not the ticket's code per the ledger"
	case err != nil:
		v.Err = fmt.Errorf("ledger lookup: %w", err)
	case !r.Winner():
		v.Reason, v.Detail = fleet.RefusedLoser, "the ledger says the ticket does not win"
	default:
		v.Lot = int64(r.Lot)
		if req.Amount != v.Lot {
			v.Reason, v.Detail = fleet.RefusedAmount, fmt.Sprintf("asked %d cents, the ledger's prize is %d", req.Amount, v.Lot)
		}
	}
	return v
}

// delivered checks that the ticket's pack is delivered to retailer (and neither void
// nor stolen since) per the retailer's signed list.
func (c *Checker) delivered(ctx context.Context, retailer uint32, id codes.TicketID) Verdict {
	v := Verdict{Retailer: retailer}
	list, err := c.Status.Status(ctx, retailer)
	if errors.Is(err, ErrNoStatus) {
		v.Reason, v.Detail = fleet.RefusedNotDelivered, fmt.Sprintf("retailer %d: %v", retailer, err)
		return v
	}
	if err != nil {
		v.Err = fmt.Errorf("status list of retailer %d: %w", retailer, err)
		return v
	}
	if st := list.State(id.Block, id.Pack); st != ledger.PackDelivered {
		v.Reason, v.Detail = fleet.RefusedNotDelivered, fmt.Sprintf("block %d pack %d is %s for retailer %d (list version %d)",
			id.Block, id.Pack, st, retailer, list.Version)
	}
	return v
}
