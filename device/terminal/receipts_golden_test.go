package terminal

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/packterm/pos/drivers/printer"
	"github.com/packterm/pos/drivers/printer/printeremul"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/journal"
)

var updateGolden = flag.Bool("update", false, "rewrite the golden receipts in testdata/receipts")

// TestGoldenReceipts prints the terminal's receipts (a payout's retailer copy, a claim, a
// sale, the day's report) in every language on a 42-column emulated printer and compares
// them with testdata/receipts/LANG-KIND.txt; -update rewrites them and draws the PNGs
// next to them. French is the terminal's receipts as they always were; English proves the
// receipts speak the locale.
func TestGoldenReceipts(t *testing.T) {
	at := time.Date(2026, 12, 2, 17, 32, 5, 0, time.UTC)
	id := codes.TicketID{Block: 12, Pack: 3456, Position: 7}
	rec := func(kind journal.Kind, seq uint64, amount int64, receipts ...string) journal.Record {
		r := journal.Record{Entry: journal.Entry{Kind: kind, Time: at, Ticket: id, Game: 7, Amount: amount, Receipts: receipts},
			Terminal: "T-0042", Seq: seq}
		r.Hash[0], r.Hash[7] = 0xab, byte(seq)
		return r
	}
	day := journal.DayTotals{Day: "2026-12-02", Sales: 12, SalesAmount: 1_200_00, Payouts: 3, PayoutsAmount: 1_530_00, Claims: 1, ClaimsAmount: 50_000_00}
	day.PerGame[2].Payouts, day.PerGame[2].Amount = 2, 30_00
	day.PerGame[7].Payouts, day.PerGame[7].Amount = 1, 1_500_00
	for _, lang := range []string{"fr", "en"} {
		tm := &Terminal{cfg: Config{Terminal: "T-0042", RetailerName: "TABAC DE LA GARE", Language: lang}}
		sale := rec(journal.KindSale, 41, 10_00, "T-0042-3FA9-000041-V")
		sale.Ticket.Position = 0
		for kind, rs := range map[string][]printer.Receipt{
			"payout": tm.payoutReceipts(rec(journal.KindPayout, 42, 1_500_00, "T-0042-3FA9-000042-J", "T-0042-3FA9-000042-C"))[1:],
			"claim":  tm.claimReceipts(rec(journal.KindClaim, 43, 50_000_00, "T-0042-3FA9-000043-R")),
			"sale":   tm.saleReceipts(sale),
			"report": tm.reportReceipt(rec(journal.KindReport, 44, 0, "T-0042-3FA9-000044-Z"), day),
		} {
			checkReceipt(t, lang+"-"+kind, rs[0])
		}
	}
}

// checkReceipt prints r on the emulator and compares its text with the golden file.
func checkReceipt(t *testing.T, name string, r printer.Receipt) {
	t.Helper()
	lay := printer.Layout{Columns: 42}
	data, err := printer.Render(r, lay)
	if err != nil {
		t.Fatal(err)
	}
	p := printeremul.New(printeremul.Config{Columns: 42})
	p.Write(data)
	got := p.Receipts()
	if len(got) != 1 {
		t.Fatalf("%s: %d receipts", name, len(got))
	}
	path := filepath.Join("testdata", "receipts", name)
	if *updateGolden {
		var png bytes.Buffer
		if err := got[0].WritePNG(&png); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path+".txt", []byte(got[0].Text()), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path+".png", png.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path + ".txt")
	if err != nil {
		t.Fatalf("%v (go test -update rewrites it)", err)
	}
	if got[0].Text() != string(want) {
		t.Errorf("%s differs from %s.txt:\n%s", name, path, got[0].Text())
	}
}

// TestUnknownLanguage: a terminal is not built in a language the locale does not have
// (never shown in French instead, silently).
func TestUnknownLanguage(t *testing.T) {
	_, err := New(Config{Terminal: "T-1", StateDir: t.TempDir(), Language: "de"}, Parts{}, Data{})
	if err == nil || !strings.Contains(err.Error(), `unknown language "de"`) {
		t.Errorf("New with language de: %v", err)
	}
}
