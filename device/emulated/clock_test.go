package emulated

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/packterm/pos/validate/block"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/journal"
	"github.com/packterm/pos/validate/ledger"
)

// virtualRun is what a scripted run on a virtual clock left: the journal as CSV and the
// receipts directory's files by name.
type virtualRun struct {
	csv      string
	files    map[string][]byte
	cut      int    // receipts the printer cut
	timeouts uint64 // waits of the terminal that timed out
}

// runVirtual plays lines on a new terminal of tb whose clock starts at start and moves
// step per input.
func runVirtual(t *testing.T, tb *testBlock, start time.Time, step time.Duration, lines []string) virtualRun {
	t.Helper()
	dir := t.TempDir()
	receipts := filepath.Join(dir, "receipts")
	rig, err := Start(context.Background(), Options{Dir: filepath.Join(dir, "terminal"), Ledgers: []*ledger.Ledger{tb.ledger}, AllDelivered: true,
		PerTicket: 20_00, Clock: NewVirtualClock(start), Step: step, ReceiptsDir: receipts})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range lines {
		if _, err := rig.Do(context.Background(), l); err != nil {
			rig.Close()
			t.Fatalf("%q: %v (screen %q)", l, err, rig.Terminal.Screen())
		}
	}
	// Closed at once, as posd does when its script ends: the last receipt, cut just before,
	// is in the receipts directory all the same.
	if err := rig.Close(); err != nil {
		t.Fatal(err)
	}
	run := virtualRun{cut: len(rig.Printer.Receipts()), timeouts: rig.Terminal.Timeouts(), files: map[string][]byte{}}
	j, err := journal.Open(filepath.Join(dir, "terminal", "journal"), journal.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	var csv bytes.Buffer
	if err := j.WriteCSV(&csv, time.Time{}); err != nil {
		t.Fatal(err)
	}
	run.csv = csv.String()
	ents, err := os.ReadDir(receipts)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(receipts, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		run.files[e.Name()] = b
	}
	return run
}

// TestVirtualClockReproducible: the same script on the same block, on a virtual clock,
// gives the same journal and the same receipts (text and PNG) byte for byte; records carry
// the script's times (start + step per input line); a result screen whose timeout falls
// within a step times out at its own time, before the next input; every receipt is in
// the receipts directory once the rig is closed.
func TestVirtualClockReproducible(t *testing.T) {
	tb := newTestBlock(t)
	winner := tb.find(t, func(tk block.Ticket) bool { return tk.Lot == 5_00 })
	loser := tb.find(t, func(tk block.Ticket) bool { return tk.Lot == 0 && tk.ID.Pack != winner.Pack })
	lines := []string{
		codes.PackCode{Block: testBlockNumber, Pack: 3}.String(), // 1: offer at +25 s
		"!ok",             // 2: sold at +50 s, result screen (20 s timeout: back to idle at +70 s)
		tb.code(winner),   // 3: +75 s
		"!expect GAGNANT", // no input: the clock stays
		"!ok",             // 4: paid at +100 s
		tb.code(loser),    // 5: a loser is shown, not journalled
		"!cancel",         // 6: back to idle
		"# a comment",     // no input
		tb.code(winner),   // 7: already paid, at +175 s
		"!reprint",        // 8: +200 s
		"!report",         // 9: +225 s, the last receipt
		"!expect-receipt RAPPORT DU JOUR",
	}
	start := time.Date(2026, 12, 1, 9, 0, 0, 0, time.FixedZone("", 3600))
	step := 25 * time.Second
	a := runVirtual(t, tb, start, step, lines)
	b := runVirtual(t, tb, start, step, lines)

	if a.csv != b.csv {
		t.Errorf("journals differ:\n%s\n---\n%s", a.csv, b.csv)
	}
	if len(a.files) != 2*a.cut || a.cut != 5 {
		t.Errorf("receipts directory holds %d files for %d receipts cut", len(a.files), a.cut)
	}
	if len(a.files) != len(b.files) {
		t.Errorf("receipts: %d files, then %d", len(a.files), len(b.files))
	}
	for name, data := range a.files {
		if !bytes.Equal(data, b.files[name]) {
			t.Errorf("receipt file %s differs between the runs", name)
		}
	}
	if a.timeouts == 0 {
		t.Error("no wait of the terminal timed out: the 25 s steps passed a 20 s result screen")
	}

	// The records' times are the script's.
	want := map[string]time.Duration{"sale": 2 * step, "payout": 4 * step, "refused": 7 * step, "reprint": 8 * step, "report": 9 * step}
	rows := strings.Split(strings.TrimSpace(a.csv), "\n")[1:]
	if len(rows) != len(want) {
		t.Errorf("%d records, want %d:\n%s", len(rows), len(want), a.csv)
	}
	for _, row := range rows {
		f := strings.Split(row, ";")
		at, err := time.Parse(time.RFC3339Nano, f[4])
		if err != nil {
			t.Fatal(err)
		}
		if d, ok := want[f[5]]; !ok || !at.Equal(start.Add(d)) || at.Format(time.RFC3339) != start.Add(d).Format(time.RFC3339) {
			t.Errorf("%s record at %s, want %s", f[5], f[4], start.Add(d).Format(time.RFC3339))
		}
	}
	if !strings.Contains(string(a.files["0001.txt"]), "01/12/2026 09:00:50") {
		t.Errorf("sale receipt does not carry the virtual time:\n%s", a.files["0001.txt"])
	}
}

// TestVirtualClockNeedsFakeClock: a step without a fake clock is refused.
func TestVirtualClockNeedsFakeClock(t *testing.T) {
	tb := newTestBlock(t)
	_, err := Start(context.Background(), Options{Dir: t.TempDir(), Ledgers: []*ledger.Ledger{tb.ledger}, AllDelivered: true, Step: time.Second})
	if err == nil || !strings.Contains(err.Error(), "fake clock") {
		t.Fatalf("err = %v", err)
	}
}
