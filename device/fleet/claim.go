package fleet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/packterm/pos/validate/codes"
)

// ErrOffline: the fleet could not confirm the claim in time (server unreachable, or its
// store unavailable). The terminal may pay within its offline limit, as an unconfirmed
// payout (journal.ReasonUnconfirmed), which Run claims once the fleet answers again.
var ErrOffline = errors.New("fleet unreachable")

// TakenError: another terminal holds the ticket's claim; the terminal refuses the payout
// ("DÉJÀ PAYÉ AILLEURS", with the terminal and time).
type TakenError struct {
	Ticket codes.TicketID
	Holder Claim
}

func (e *TakenError) Error() string {
	return fmt.Sprintf("fleet: ticket %v already claimed by terminal %s at %s", e.Ticket, e.Holder.Terminal, e.Holder.At.UTC().Format(time.RFC3339))
}

// ErrRefused: the claim service refused the claim: the code does not prove the ticket
// (RefusedError says why). Nothing is claimed.
var ErrRefused = errors.New("claim refused")

// RefusedError: the service refused the claim for Reason (fleet.Refused…); Detail is the
// service's explanation (English, for the log).
type RefusedError struct {
	Ticket codes.TicketID
	Reason string
	Detail string
}

func (e *RefusedError) Error() string {
	return fmt.Sprintf("fleet: claim %v: %v: %s (%.200s)", e.Ticket, ErrRefused, e.Reason, e.Detail)
}

// Unwrap makes errors.Is(err, ErrRefused) hold.
func (e *RefusedError) Unwrap() error { return ErrRefused }

// Claim claims the ticket of code for this terminal before it is paid, amount being the
// prize per the terminal's ledger: nil when the claim is this terminal's (won now, or
// already), *TakenError when another terminal holds it, *RefusedError when the service
// refuses it (the code does not win per the operator's ledger, the amount differs, the
// pack is not this retailer's, rate limited), an error wrapping ErrOffline when the fleet
// does not answer within the timeout, *PaidBeforeError when the claim is this terminal's
// own but made under an earlier journal (Options.Journal's epoch differs: paid before a
// journal reset or a wipe), an error wrapping ErrRestored while the journal is the one
// found behind what the fleet holds of it (restored from an earlier copy: checkRestored).
// The request carries the full code (the ticket is being paid;
// it is never logged) and the journal's epoch.
func (c *Client) Claim(ctx context.Context, code codes.ValidationCode, amount int64) (Claim, error) {
	return c.claim(ctx, ClaimRequest{Ticket: code.ID(), Code: code.String(), Amount: amount, At: c.clock.Now()})
}

func (c *Client) claim(ctx context.Context, req ClaimRequest) (Claim, error) {
	if err := c.restored(); err != nil { // online or not: nothing is paid
		return Claim{}, err
	}
	if !c.Online() {
		return Claim{}, fmt.Errorf("fleet: claim %v: %w (not connected)", req.Ticket, ErrOffline)
	}
	var cur *JournalEpoch // nil without a journal (tools, tests): "yours" is not checked
	if c.o.Journal != nil {
		e, err := epochOf(c.o.Journal)
		if err != nil {
			return Claim{}, fmt.Errorf("fleet: claim %v: %w", req.Ticket, err)
		}
		cur, req.Epoch = &e, e.ID
	}
	body, err := json.Marshal(req)
	if err != nil {
		return Claim{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, c.o.Timeout)
	defer cancel()
	msg, err := c.nc.RequestWithContext(ctx, ClaimPrefix+c.o.Terminal, body)
	if err != nil {
		if errors.Is(err, context.Canceled) && ctx.Err() != context.DeadlineExceeded {
			return Claim{}, fmt.Errorf("fleet: claim %v: %w", req.Ticket, err)
		}
		return Claim{}, fmt.Errorf("fleet: claim %v: %w (%v)", req.Ticket, ErrOffline, err)
	}
	return c.claimReply(req, cur, msg)
}

func (c *Client) claimReply(req ClaimRequest, cur *JournalEpoch, msg *nats.Msg) (Claim, error) {
	rep, err := DecodeClaimReply(msg.Data)
	if err != nil {
		return Claim{}, fmt.Errorf("fleet: claim %v: %w", req.Ticket, err)
	}
	switch rep.Result {
	case ResultWon, ResultYours:
		if rep.Holder.Terminal != c.o.Terminal {
			return Claim{}, badMessage("claim %v: %s reply names terminal %s", req.Ticket, rep.Result, rep.Holder.Terminal)
		}
		if rep.Result == ResultYours && cur != nil && EarlierJournal(rep.Holder, *cur) {
			return rep.Holder, &PaidBeforeError{Ticket: req.Ticket, Holder: rep.Holder, Epoch: cur.ID}
		}
		return rep.Holder, nil
	case ResultTaken:
		if rep.Holder.Terminal == c.o.Terminal {
			return Claim{}, badMessage("claim %v: taken by this very terminal", req.Ticket)
		}
		return rep.Holder, &TakenError{Ticket: req.Ticket, Holder: rep.Holder}
	case ResultRefused:
		return Claim{}, &RefusedError{Ticket: req.Ticket, Reason: rep.Reason, Detail: rep.Error}
	}
	return Claim{}, fmt.Errorf("fleet: claim %v: %w (service: %.200s)", req.Ticket, ErrOffline, rep.Error)
}
