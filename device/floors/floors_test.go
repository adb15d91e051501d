package floors

import (
	"strconv"
	"strings"
	"testing"

	"github.com/packterm/pos/validate/journal"
)

// The details the daemon, the fleet client and the maintenance link write are read as the
// versions they name, each of its kind only.
func TestAdd(t *testing.T) {
	var f Floors
	for _, r := range []struct {
		kind   journal.Kind
		detail string
	}{
		{journal.KindStatusInstall, "version 2, was 1 (fleet)"},
		{journal.KindStatusInstall, "status installed: version 5 (maintenance link)"},
		{journal.KindStatusInstall, "version 3, was 2 (fleet)"},
		{journal.KindLedgerInstall, "ledger installed: block 7, version 2 (was 1)"},
		{journal.KindLedgerInstall, "ledger installed: block 7, version 1"},
		{journal.KindLedgerInstall, "ledger installed: block 9, version 4 (was 3)"},
		{journal.KindConfigChange, "keys: operator keys installed: statement version 3 (was 2), keys [a], signed by b"},
		{journal.KindConfigChange, "keys: operator limits installed: statement version 6 (was 5), for retailer 7"},
		{journal.KindConfigChange, "keys: firmware keys installed: statement version 4 (was 3); in force at the next start"},
		{journal.KindConfigChange, "config installed (maintenance link): terminal.status_poll 2s → 3s, version 9"},
		{journal.KindPayout, "version 99"},
	} {
		f.Add(r.kind, r.detail)
	}
	want := Floors{Status: 5, HadStatus: true, Ledgers: map[uint16]uint64{7: 2, 9: 4}, OperatorKeys: 3, Limits: 6, FirmwareKeys: 4}
	if !f.Equal(want) {
		t.Fatalf("floors %+v, want %+v", f, want)
	}
	var g Floors
	g.Add(journal.KindStatusInstall, "status list installed")
	if !g.HadStatus || g.Status != 0 {
		t.Fatalf("a status install without a version: %+v", g)
	}
}

// Raise keeps the higher of each floor and says whether one went up; a clone shares
// nothing.
func TestRaise(t *testing.T) {
	f := Floors{Status: 3, Ledgers: map[uint16]uint64{1: 5}, Limits: 2}
	if f.Raise(Floors{Status: 2, Ledgers: map[uint16]uint64{1: 4}, Limits: 1}) {
		t.Fatal("raised by lower floors")
	}
	c := f.Clone()
	if !f.Raise(Floors{Ledgers: map[uint16]uint64{1: 6, 2: 1}, FirmwareKeys: 1, HadStatus: true}) {
		t.Fatal("not raised by higher floors")
	}
	want := Floors{Status: 3, HadStatus: true, Ledgers: map[uint16]uint64{1: 6, 2: 1}, Limits: 2, FirmwareKeys: 1}
	if !f.Equal(want) {
		t.Fatalf("raised to %+v, want %+v", f, want)
	}
	if c.Ledgers[1] != 5 || len(c.Ledgers) != 1 {
		t.Fatalf("the clone changed with the original: %+v", c)
	}
}

// FuzzAdd: reading any detail never panics, and a floor is read only where the detail
// writes "version N" (and a ledger's block where it writes "block B").
func FuzzAdd(f *testing.F) {
	f.Add("status-install", "version 2, was 1 (fleet)")
	f.Fuzz(func(t *testing.T, kind, detail string) {
		k, err := journal.ParseKind(kind)
		if err != nil {
			return
		}
		var fl Floors
		fl.Add(k, detail)
		for _, v := range []uint64{fl.Status, fl.OperatorKeys, fl.Limits, fl.FirmwareKeys} {
			if v != 0 && !writes(detail, "version ", v) {
				t.Fatalf("%s %q: read version %d", kind, detail, v)
			}
		}
		for b, v := range fl.Ledgers {
			if !writes(detail, "block ", uint64(b)) || !writes(detail, ", version ", v) {
				t.Fatalf("%s %q: read block %d version %d", kind, detail, b, v)
			}
		}
	})
}

// writes reports whether detail has word followed by digits that are v.
func writes(detail, word string, v uint64) bool {
	for rest := detail; ; {
		_, after, ok := strings.Cut(rest, word)
		if !ok {
			return false
		}
		n := 0
		for n < len(after) && after[n] >= '0' && after[n] <= '9' {
			n++
		}
		if got, err := strconv.ParseUint(after[:n], 10, 64); err == nil && got == v {
			return true
		}
		rest = after
	}
}
