package server_test

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/device/fleet/fleettest"
	"github.com/packterm/pos/device/fleet/server"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/game"
	"github.com/packterm/pos/validate/ledger"
)

// fakeLedgers answers codes from a map of code text to result (ErrForged for a known
// ticket with another code, ErrUnknownBlock for any other block than 7).
type fakeLedgers map[string]ledger.Result

func (f fakeLedgers) Lookup(c codes.ValidationCode) (ledger.Result, error) {
	if c.Block != 7 {
		return ledger.Result{}, fmt.Errorf("fake: %w", ledger.ErrUnknownBlock)
	}
	if r, ok := f[c.String()]; ok {
		return r, nil
	}
	return ledger.Result{}, fmt.Errorf("fake: %w", ledger.ErrForged)
}

// fakeStatus is each retailer's list; errStore for retailer 13 (the bucket out of reach).
type fakeStatus map[uint32]*ledger.StatusList

var errStore = errors.New("store out of reach")

func (f fakeStatus) Status(_ context.Context, retailer uint32) (*ledger.StatusList, error) {
	if retailer == 13 {
		return nil, errStore
	}
	if l := f[retailer]; l != nil {
		return l, nil
	}
	return nil, fmt.Errorf("fake: %w", server.ErrNoStatus)
}

func statusList(t *testing.T, retailer uint32, rs ...ledger.PackRange) *ledger.StatusList {
	t.Helper()
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	data, err := ledger.MarshalStatus(&ledger.StatusList{Retailer: retailer, Version: 1, Ranges: rs}, priv)
	if err != nil {
		t.Fatal(err)
	}
	l, err := ledger.ParseStatus(data, ledger.NewTrustStore(pub))
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestCheckerDecides: every path of a claim's check on small fakes: the code required and
// of the claimed ticket, the claimant registered, the pack delivered to its retailer (not
// void), the code the ticket's per the ledger, a winner, at the ledger's amount; a store
// out of reach leaves the claim undecided, not refused.
func TestCheckerDecides(t *testing.T) {
	win := codes.ValidationCodeOf(codes.TicketID{Block: 7, Pack: 1, Position: 2}, [codes.SecretSize]byte{1})
	lose := codes.ValidationCodeOf(codes.TicketID{Block: 7, Pack: 1, Position: 3}, [codes.SecretSize]byte{2})
	voided := codes.ValidationCodeOf(codes.TicketID{Block: 7, Pack: 4, Position: 1}, [codes.SecretSize]byte{3})
	elsewhere := codes.ValidationCodeOf(codes.TicketID{Block: 7, Pack: 9, Position: 1}, [codes.SecretSize]byte{4})
	block8 := codes.ValidationCodeOf(codes.TicketID{Block: 8, Pack: 1, Position: 1}, [codes.SecretSize]byte{5})
	wrong := codes.ValidationCodeOf(win.ID(), [codes.SecretSize]byte{9})
	led := fakeLedgers{win.String(): {Ticket: win.ID(), Tier: 2, Lot: game.Euros(30)}, lose.String(): {Ticket: lose.ID()},
		voided.String(): {Ticket: voided.ID(), Tier: 1, Lot: 500}}
	st := fakeStatus{5: statusList(t, 5,
		ledger.PackRange{Block: 7, First: 0, Count: 5, State: ledger.PackDelivered},
		ledger.PackRange{Block: 7, First: 4, Count: 1, State: ledger.PackVoid},
		ledger.PackRange{Block: 8, First: 0, Count: 5, State: ledger.PackDelivered})}
	retailers := map[string]uint32{"A": 5, "B": 6, "C": 13}
	c := server.Checker{Retailer: func(id string) (uint32, bool) { r, ok := retailers[id]; return r, ok }, Ledgers: led, Status: st}
	req := func(code codes.ValidationCode, amount int64) fleet.ClaimRequest {
		return fleet.ClaimRequest{Ticket: code.ID(), Code: code.String(), Amount: amount}
	}
	for _, tc := range []struct {
		name, terminal string
		req            fleet.ClaimRequest
		reason         string
		lot            int64
		undecided      bool
	}{
		{"winner at its prize", "A", req(win, 30_00), "", 30_00, false},
		{"no code", "A", fleet.ClaimRequest{Ticket: win.ID(), Amount: 30_00}, fleet.RefusedWrongCode, 0, false},
		{"not a code", "A", fleet.ClaimRequest{Ticket: win.ID(), Code: "NOT-A-CODE", Amount: 30_00}, fleet.RefusedWrongCode, 0, false},
		{"another ticket's code", "A", fleet.ClaimRequest{Ticket: lose.ID(), Code: win.String(), Amount: 30_00}, fleet.RefusedWrongCode, 0, false},
		{"wrong secret", "A", req(wrong, 30_00), fleet.RefusedWrongCode, 0, false},
		{"loser", "A", req(lose, 150_00), fleet.RefusedLoser, 0, false},
		{"inflated", "A", req(win, 150_00), fleet.RefusedAmount, 30_00, false},
		{"void pack", "A", req(voided, 5_00), fleet.RefusedNotDelivered, 0, false},
		{"pack not delivered here", "A", req(elsewhere, 1_00), fleet.RefusedNotDelivered, 0, false},
		{"retailer without a list", "B", req(win, 30_00), fleet.RefusedNotDelivered, 0, false},
		{"unregistered terminal", "Z", req(win, 30_00), fleet.RefusedUnregistered, 0, false},
		{"block without a ledger", "A", req(block8, 1_00), fleet.RefusedUnknownBlock, 0, false},
		{"status store out of reach", "C", req(win, 30_00), "", 0, true},
	} {
		v := c.Check(context.Background(), tc.terminal, tc.req)
		if v.Reason != tc.reason || v.Lot != tc.lot || (v.Err != nil) != tc.undecided {
			t.Errorf("%s: %+v, want reason %q lot %d undecided %v", tc.name, v, tc.reason, tc.lot, tc.undecided)
		}
		if v.Reason != "" && v.Detail == "" {
			t.Errorf("%s: refused without a detail", tc.name)
		}
		for _, code := range []codes.ValidationCode{win, lose, wrong, voided} {
			if strings.Contains(v.Detail, code.String()) {
				t.Errorf("%s: detail holds a code", tc.name)
			}
		}
	}
}

// BenchmarkCheck: one claim's check without the network: the status list (cached), the
// code's parse and the ledger's lookup (one key derivation).
func BenchmarkCheck(b *testing.B) {
	secret := func(id codes.TicketID) [codes.SecretSize]byte {
		return [codes.SecretSize]byte{byte(id.Pack), id.Position}
	}
	blk := fleettest.NewBlock(b, 7, 1000, secret, func(codes.TicketID) uint8 { return 1 })
	data := blk.Status(b, 5, 1, blk.Delivered())
	list, err := ledger.ParseStatus(data, blk.Trust)
	if err != nil {
		b.Fatal(err)
	}
	c := server.Checker{Retailer: func(string) (uint32, bool) { return 5, true }, Ledgers: blk.Set(b), Status: fakeStatus{5: list}}
	reqs := make([]fleet.ClaimRequest, 1024)
	for i := range reqs {
		id := codes.TicketID{Block: 7, Pack: uint32(i % 1000), Position: uint8(i%8 + 1)}
		reqs[i] = fleet.ClaimRequest{Ticket: id, Code: blk.Code(id).String(), Amount: blk.Lot(id)}
	}
	b.ResetTimer()
	for i := range b.N {
		if v := c.Check(context.Background(), "A", reqs[i%len(reqs)]); v.Reason != "" || v.Err != nil {
			b.Fatal(v)
		}
	}
}
