// Package golden compares test output with files in testdata, for the printer's test
// packages; `go test -update` rewrites them instead (review the diff).
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/packterm/pos/drivers/printer"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// Updating reports whether the test run rewrites golden files.
func Updating() bool { return *update }

// Check compares got with testdata/name, or writes it there when updating.
func Check(t testing.TB, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from golden:\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

// TestPageWords are the French words of the golden test pages (a driver holds no words:
// the terminal takes them from device/locale, whose French they are).
func TestPageWords() printer.TestPageWords {
	return printer.TestPageWords{
		Title: "PAGE DE TEST", Printer: "Imprimante ticket ESC/POS", Styles: "Normal, gras, souligné, inversé :",
		Bold: "Gras", Underline: "Souligné", Reverse: " Inversé ", DoubleWidth: "Double largeur", DoubleHeight: "Double hauteur",
		Right: "À droite", Accents: "Accents : à â ç é è ê ë î ï ô ù û ü ÿ « »", Capitals: "Capitales : À Â Ç É È Ê Ë Î Ï Ô Ù Û Ü",
		Euro: "Euro", EuroAmount: "10,00 €", Total: "Total", TotalAmount: "1 234,50 €", End: "Fin de la page de test",
	}
}
