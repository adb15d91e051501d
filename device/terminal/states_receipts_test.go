package terminal_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/packterm/pos/device/terminal/terminaltest"
	"github.com/packterm/pos/validate/journal"
)

// Issue 47, the retailer with root puts back a copy of the data directory and has a paid
// ticket paid again (no fleet: documented, settlement's to find): the two payouts' receipts
// do not carry the same ids, so the payment centre tells them apart.
func TestRestoredCopyPrintsOtherReceiptIDs(t *testing.T) {
	code, _ := winner(t, 5_00)
	dir := terminaltest.TempDir(t)
	first := newRig(t, func(o *terminaltest.Options) { o.Dir = dir })
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	copied := terminaltest.TempDir(t)
	if err := os.CopyFS(copied, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	err := filepath.WalkDir(copied, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		return os.Chmod(p, 0o600) // as the retailer's copy keeps them
	})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, d := range []string{dir, copied} {
		r := newRig(t, func(o *terminaltest.Options) { o.Dir = d })
		r.Run(t, nil)
		if got := pays(t, r, code); got != "result:paid" {
			t.Fatalf("in %s: %s", d, got)
		}
		ps := records(t, r, journal.KindPayout)
		if len(ps) != 1 || ps[0].Seq != 1 {
			t.Fatalf("payouts %+v", ps)
		}
		ids = append(ids, ps[0].Receipts...)
		if got := r.Printer.PrintedIDs(); !slices.Equal(got, ps[0].Receipts) {
			t.Fatalf("printed %v, recorded %v", got, ps[0].Receipts)
		}
	}
	t.Logf("receipt ids %v", ids)
	seen := map[string]bool{}
	for _, id := range ids {
		if seen[id] {
			t.Fatalf("receipt id %s printed twice: %v", id, ids)
		}
		seen[id] = true
	}
}
