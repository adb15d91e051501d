package diag_test

import (
	"os"
	"strings"
	"testing"

	"github.com/packterm/pos/device/diag"
	"github.com/packterm/pos/device/locale"
	"github.com/packterm/pos/drivers/printer"
	"github.com/packterm/pos/drivers/printer/printeremul"
)

// printTestPage prints the test page in the language of l on a 48-column emulated printer.
func printTestPage(t *testing.T, l *locale.Locale) printeremul.Receipt {
	t.Helper()
	lay := printer.Layout{Columns: 48}
	data, err := printer.Render(printer.TestPage(lay, false, diag.TestPageWords(l)), lay)
	if err != nil {
		t.Fatal(err)
	}
	p := printeremul.New(printeremul.Config{Columns: 48})
	p.Write(data)
	rs := p.Receipts()
	if len(rs) != 1 {
		t.Fatalf("%d receipts", len(rs))
	}
	return rs[0]
}

// TestTestPageWords: the French words of the locale print the printer driver's golden test
// page byte for byte; the English page has every line in English.
func TestTestPageWords(t *testing.T) {
	want, err := os.ReadFile("../../drivers/printer/testdata/testpage-48.txt")
	if err != nil {
		t.Fatal(err)
	}
	if got := printTestPage(t, nil).Text(); got != string(want) {
		t.Errorf("French test page differs from the golden one:\n%s", got)
	}
	en := printTestPage(t, locale.English()).PlainText()
	for _, w := range []string{"TEST PAGE", "Double width", "€1,234.50", "End of the test page"} {
		if !strings.Contains(en, w) {
			t.Errorf("English test page lacks %q:\n%s", w, en)
		}
	}
}
