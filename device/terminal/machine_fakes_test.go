package terminal_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/device/terminal"
	"github.com/packterm/pos/device/terminal/terminaltest"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/decide"
	"github.com/packterm/pos/validate/journal"
	"github.com/packterm/pos/validate/ledger"
)

// The whole machine (Run, the scanner's loop) on fakes only: a winner scanned on the fake
// scanner, confirmed with OK, is paid: both receipts print, the drawer opens once, the
// green LED lights, the journal holds one payout. No pty, no emulator.
func TestMachinePaysAWinnerOnFakes(t *testing.T) {
	code, v := winner(t, 5_00)
	start := time.Now()
	r := newRig(t)
	sc := terminaltest.NewScanner()
	r.Run(t, sc)
	ready := time.Now()
	n := r.Terminal.Received()
	if err := sc.Scan(t.Context(), code); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Terminal.Settle(t.Context(), n); err != nil {
		t.Fatal(err)
	}
	if got := r.Terminal.StateName(); got != "pay-offer" {
		t.Fatalf("after the scan: %s", got)
	}
	if got := r.Do(t, at(r, press(terminal.EvOK))); got != "result:paid" {
		t.Fatalf("after OK: %s", got)
	}
	t.Logf("paid through the machine on fakes in %v (%v with the rig's making)", time.Since(ready), time.Since(start))
	ps := records(t, r, journal.KindPayout)
	if len(ps) != 1 || ps[0].Ticket != v.Ticket || ps[0].Amount != 5_00 {
		t.Fatalf("payouts %+v", ps)
	}
	if got := printed(r); got != "J C" || r.Drawer.Opens() != 1 || !r.Green.On() || r.Red.On() {
		t.Errorf("printed %q, drawer %d, green %v, red %v", got, r.Drawer.Opens(), r.Green.On(), r.Red.On())
	}
	if !r.Buzzer.WaitPlayed(t.Context(), 2) {
		t.Error("no beeps")
	}
	if got := r.Do(t, press(terminal.EvOK)); got != "idle" {
		t.Errorf("after OK on the result: %s", got)
	}
}

// Every refusal of a winner through the whole machine: the state it ends in, the
// reason journalled; nothing paid, the drawer shut, no receipt.
func TestMachineRefusalsOnFakes(t *testing.T) {
	code, v := winner(t, 5_00)
	loser, err := blk(t).Loser()
	if err != nil {
		t.Fatal(err)
	}
	forged, err := blk(t).Forged()
	if err != nil {
		t.Fatal(err)
	}
	other := codes.ValidationCodeOf(codes.TicketID{Block: 99, Pack: 1, Position: 1}, v.Code.Secret).String()
	bad := []byte(code)
	bad[len(bad)-1] ^= 1
	empty, _ := ledger.NewSet()
	offline := fmt.Errorf("test: %w", fleet.ErrOffline)
	type opt = func(*terminaltest.Options)
	cases := []struct {
		name, code string
		opt        opt
		ok         bool // OK pressed on the offer
		want       string
		reason     string // "" : nothing journalled
	}{
		{"not-a-code", "hello", nil, false, "result:invalid", ""},
		{"mistyped", string(bad), nil, false, "result:invalid", "invalid"},
		{"loser", loser, nil, false, "result:loser", ""},
		{"forged", forged, nil, false, "result:forged", "forged"},
		{"unknown-block", other, nil, false, "result:unknown-block", "unknown-block"},
		{"no-ledger", code, func(o *terminaltest.Options) { o.Ledgers = empty }, false, "result:no-ledger", "no-ledger"},
		{"void-pack", code, func(o *terminaltest.Options) { o.Status = packState(ledger.PackVoid) }, false, "result:void-pack", "void-pack"},
		{"stolen-pack", code, func(o *terminaltest.Options) { o.Status = packState(ledger.PackStolen) }, false, "result:stolen-pack", "stolen-pack"},
		{"paid-elsewhere", code, func(o *terminaltest.Options) {
			o.Fleet = &fleet.Fake{Terminal: "T-0001", Held: map[codes.TicketID]string{v.Ticket: "T-0002"}}
		}, true, "result:paid-elsewhere", "paid-elsewhere"},
		{"refused-by-fleet", code, func(o *terminaltest.Options) {
			o.Fleet = &fleet.Fake{Refused: map[codes.TicketID]string{v.Ticket: "rate"}}
		}, true, "result:fleet-refused", "fleet-refused:rate"},
		{"fleet-offline", code, func(o *terminaltest.Options) { o.Fleet = &fleet.Fake{Err: offline} }, true, "result:fleet-offline", "fleet-offline"},
		{"offline-total", code, func(o *terminaltest.Options) {
			o.Fleet = &exposed{Fake: fleet.Fake{Err: offline}, unclaimed: 9_00}
			o.Config.OfflinePerTicket, o.Config.OfflineTotal = 10_00, 10_00
		}, true, "result:offline-total", "offline-total"},
		{"claim-failed", code, func(o *terminaltest.Options) { o.Fleet = &fleet.Fake{Err: errors.New("boom")} }, true, "result:claim-failed", "claim-failed"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var opts []opt
			if c.opt != nil {
				opts = append(opts, c.opt)
			}
			r := newRig(t, opts...)
			r.Run(t, nil)
			got := r.Do(t, scan(c.code))
			if c.ok {
				if got != "pay-offer" {
					t.Fatalf("after the scan: %s", got)
				}
				got = r.Do(t, at(r, press(terminal.EvOK)))
			}
			if got != c.want {
				t.Fatalf("ends in %s, want %s", got, c.want)
			}
			rs := records(t, r, journal.KindRefused)
			switch {
			case c.reason == "" && len(rs) != 0:
				t.Errorf("journalled %+v", rs)
			case c.reason != "" && (len(rs) != 1 || rs[0].Reason != c.reason || rs[0].HasCode()):
				t.Errorf("refusals %+v, want one %q", rs, c.reason)
			}
			if n := len(records(t, r, journal.KindPayout)); n != 0 || r.Drawer.Opens() != 0 || len(r.Printer.PrintedIDs()) != 0 {
				t.Errorf("%d payouts, drawer %d, receipts %v", n, r.Drawer.Opens(), r.Printer.PrintedIDs())
			}
			if r.Green.On() && c.want != "result:loser" {
				t.Error("green LED on a refusal")
			}
		})
	}
}

// The refusals that need a history, through the whole machine: a ticket paid before, and
// validation locked after forged codes (even a winner is refused then).
func TestMachineAlreadyPaidAndLockedOnFakes(t *testing.T) {
	code, _ := winner(t, 5_00)
	forged, err := blk(t).Forged()
	if err != nil {
		t.Fatal(err)
	}
	r := newRig(t)
	r.Run(t, nil)
	r.Do(t, scan(code))
	if got := r.Do(t, at(r, press(terminal.EvOK))); got != "result:paid" {
		t.Fatalf("first payout: %s", got)
	}
	if got := r.Do(t, scan(code)); got != "result:already-paid" {
		t.Fatalf("second scan: %s", got)
	}
	for range 5 {
		r.Do(t, scan(forged))
	}
	other, _ := winner(t, 3_00)
	if got := r.Do(t, scan(other)); got != "result:locked" {
		t.Fatalf("a winner during the lock: %s", got)
	}
	var reasons []string
	for _, rec := range records(t, r, journal.KindRefused) {
		reasons = append(reasons, rec.Reason)
	}
	want := []string{decide.PaidHere.String(), "forged", "forged", "forged", "forged", "forged", decide.Locked.String()}
	if fmt.Sprint(reasons) != fmt.Sprint(want) {
		t.Errorf("refusals %v, want %v", reasons, want)
	}
	if n := len(records(t, r, journal.KindPayout)); n != 1 || r.Drawer.Opens() != 1 {
		t.Errorf("%d payouts, drawer %d", n, r.Drawer.Opens())
	}
}

// exposed is a fleet out of reach that already owes unclaimed unconfirmed payouts.
type exposed struct {
	fleet.Fake
	unclaimed int64
}

func (e *exposed) Unclaimed() (int64, error) { return e.unclaimed, nil }

var _ fleet.Exposure = (*exposed)(nil)
