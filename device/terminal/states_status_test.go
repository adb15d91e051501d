package terminal_test

import (
	"strings"
	"testing"

	"github.com/packterm/pos/device/terminal/terminaltest"
	"github.com/packterm/pos/internal/testblock"
	"github.com/packterm/pos/validate/journal"
	"github.com/packterm/pos/validate/ledger"
)

// statusList is a signed pack status list of version v: the test block delivered, the
// packs stolen reported stolen.
func statusList(t *testing.T, v uint64, stolen ...uint32) *ledger.StatusList {
	t.Helper()
	key, err := ledger.LoadPrivateKey(blk(t).Key)
	if err != nil {
		t.Fatal(err)
	}
	trust, err := ledger.LoadTrustStore(blk(t).Pub)
	if err != nil {
		t.Fatal(err)
	}
	s := &ledger.StatusList{Retailer: 1, Version: v, Issued: terminaltest.Epoch().Unix(),
		Ranges: []ledger.PackRange{{Block: testblock.Number, First: 0, Count: 8, State: ledger.PackDelivered}}}
	for _, p := range stolen {
		s.Ranges = append(s.Ranges, ledger.PackRange{Block: testblock.Number, First: p, Count: 1, State: ledger.PackStolen})
	}
	b, err := ledger.MarshalStatus(s, key)
	if err != nil {
		t.Fatal(err)
	}
	if s, err = ledger.ParseStatus(b, trust); err != nil {
		t.Fatal(err)
	}
	return s
}

// Issue 47, the retailer with root puts back an older signed pack status list (or removes
// it) to have a stolen pack's winner paid: PAQUET VOLÉ with list 2; with list 1 back, or
// no list, the terminal says the list is refused and judges, sells and pays nothing; list
// 2 (or newer) installed again, it is PAQUET VOLÉ again and other packs pay.
func TestOlderStatusListRefused(t *testing.T) {
	code, v := winner(t, 5_00)
	other := winnerN(t, 5_00, 1)
	if validationCode(t, other).ID().Pack == v.Ticket.Pack {
		t.Fatal("test block: the two winners share a pack")
	}
	pack, _ := packCode(t)
	dir := terminaltest.TempDir(t)
	list := func(s *ledger.StatusList) func(*terminaltest.Options) {
		return func(o *terminaltest.Options) {
			o.Dir = dir
			if s != nil {
				o.Status = s
			}
		}
	}
	screen := func(r *terminaltest.Rig) string { return strings.Join(r.Terminal.Screen(), " ") }
	t.Run("list 2", func(t *testing.T) {
		r := newRig(t, list(statusList(t, 2, v.Ticket.Pack)))
		for _, d := range []string{"version 1 (maintenance link)", "version 2, was 1 (fleet)"} {
			if _, err := r.Journal.Append(journal.Entry{Kind: journal.KindStatusInstall, Detail: d}); err != nil {
				t.Fatal(err)
			}
		}
		r.Run(t, nil)
		if got := pays(t, r, code); !strings.Contains(screen(r), "PAQUET VOLÉ") {
			t.Fatalf("stolen pack's winner with list 2: %s %q", got, screen(r))
		}
	})
	for name, s := range map[string]*ledger.StatusList{"list 1 put back": statusList(t, 1), "list removed": nil} {
		t.Run(name, func(t *testing.T) {
			r := newRig(t, list(s))
			from, _ := r.Journal.Head()
			r.Run(t, nil)
			if got := r.Terminal.StateName(); got != "result:status-refused" || !strings.Contains(screen(r), "LISTE DES PAQUETS") {
				t.Errorf("at start: %s %q", got, screen(r))
			}
			for _, c := range []string{code, other, pack} {
				if got := pays(t, r, c); got != "result:status-refused" {
					t.Errorf("%s: %s %q", name, got, screen(r))
				}
			}
			if n := len(records(t, r, journal.KindPayout)) + len(records(t, r, journal.KindSale)); n != 0 || r.Drawer.Opens() != 0 {
				t.Fatalf("%d payouts and sales, drawer %d", n, r.Drawer.Opens())
			}
			refused := 0
			for _, rec := range records(t, r, journal.KindRefused) {
				if rec.Reason == "status-refused" && rec.Seq > from {
					refused++
				}
			}
			if refused != 3 {
				t.Errorf("%d refusals journalled as status-refused, want 3", refused)
			}
		})
	}
	t.Run("list 3", func(t *testing.T) {
		r := newRig(t, list(statusList(t, 3, v.Ticket.Pack)))
		r.Run(t, nil)
		if got := r.Terminal.StateName(); got != "idle" {
			t.Fatalf("at start with a newer list: %s %q", got, screen(r))
		}
		pays(t, r, code)
		if !strings.Contains(screen(r), "PAQUET VOLÉ") {
			t.Errorf("stolen pack's winner with list 3: %q", screen(r))
		}
		if got := pays(t, r, other); got != "result:paid" {
			t.Errorf("another pack's winner with list 3: %s", got)
		}
	})
}

// Issue 47, the retailer with root puts back an older signed ledger of a block (version 1
// after version 2 was installed): the block's codes are refused before they are judged
// (REGISTRE ANCIEN), journalled, nothing sold or paid; with the ledger the journal last
// recorded, the block pays.
func TestOlderLedgerRefused(t *testing.T) {
	code := winnerN(t, 5_00, 0)
	other := winnerN(t, 5_00, 1)
	pack, _ := packCode(t)
	dir := terminaltest.TempDir(t)
	installed := func(r *terminaltest.Rig, detail string) {
		t.Helper()
		if _, err := r.Journal.Append(journal.Entry{Kind: journal.KindLedgerInstall, Detail: detail}); err != nil {
			t.Fatal(err)
		}
	}
	t.Run("version 1 installed", func(t *testing.T) {
		r := newRig(t, func(o *terminaltest.Options) { o.Dir = dir })
		installed(r, "ledger installed: block 7, version 1 (none before)")
		r.Run(t, nil)
		if got := pays(t, r, code); got != "result:paid" {
			t.Fatalf("block 7 with its ledger: %s", got)
		}
		installed(r, "ledger installed: block 7, version 2 (was 1)") // then root puts version 1 back
	})
	t.Run("version 1 put back", func(t *testing.T) {
		r := newRig(t, func(o *terminaltest.Options) { o.Dir = dir })
		from, _ := r.Journal.Head()
		r.Run(t, nil)
		for _, c := range []string{other, pack} {
			if got := pays(t, r, c); got != "result:ledger-refused" || !strings.Contains(strings.Join(r.Terminal.Screen(), " "), "REGISTRE ANCIEN") {
				t.Errorf("%s: %s %q", c, got, r.Terminal.Screen())
			}
		}
		if n := len(records(t, r, journal.KindPayout)); n != 1 || r.Drawer.Opens() != 0 {
			t.Fatalf("%d payouts, drawer %d", n, r.Drawer.Opens())
		}
		refused := 0
		for _, rec := range records(t, r, journal.KindRefused) {
			if rec.Reason == "ledger-refused" && rec.Seq > from {
				refused++
			}
		}
		if refused != 2 {
			t.Errorf("%d refusals journalled as ledger-refused, want 2", refused)
		}
	})
}
