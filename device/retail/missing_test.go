package retail

import (
	"strings"
	"testing"

	"github.com/packterm/pos/device/locale"
)

// TestMissingScreen: the screen at rest of a terminal lacking data names each missing
// item, in full on a 20×4 panel when it fits, shorter on a 16×2 one, in French and English;
// without a status list only, the terminal still invites a scan (it validates).
func TestMissingScreen(t *testing.T) {
	en, _ := locale.Get("en")
	for _, c := range []struct {
		m          Missing
		l          *locale.Locale
		cols, rows int
		want       string
	}{
		{MissingLedger, nil, 20, 4, "À INSTALLER :|REGISTRE|APPELEZ UN|TECHNICIEN"},
		{MissingLedger, nil, 16, 2, "À INSTALLER :|REGISTRE"},
		{MissingStatus, nil, 20, 4, "SCANNEZ UN CODE|À INSTALLER :|LISTE DES PAQUETS"},
		{MissingStatus, nil, 16, 2, "SCANNEZ UN CODE|MANQUE : LISTE"},
		{MissingStatus, en, 16, 2, "SCAN A CODE|MISSING: LIST"},
		{MissingOperatorKeys | MissingStatus, nil, 16, 2, "MANQUE : CLÉS,|LISTE PAQUETS"},
		{MissingLedger | MissingStatus, nil, 20, 4, "À INSTALLER :|REGISTRE,|LISTE DES PAQUETS"},
		{MissingLedger | MissingStatus, nil, 16, 2, "MANQUE :|REGISTRE, LISTE"},
		{AllMissing, nil, 20, 4, "À INSTALLER :|CLÉS OPÉRATEUR,|REGISTRE,|LISTE DES PAQUETS"},
		{AllMissing, nil, 16, 2, "MANQUE : CLÉS,|REGISTRE, LISTE"},
		{MissingLedger, en, 20, 4, "TO INSTALL:|LEDGER|CALL A TECHNICIAN"},
		{AllMissing, en, 16, 2, "MISSING: KEYS,|LEDGER, LIST"},
	} {
		got, err := Layout(MissingScreen(c.m).In(c.l), c.cols, c.rows)
		if err != nil || strings.Join(got, "|") != c.want {
			t.Errorf("%s on %dx%d: %q %v, want %q", c.m, c.cols, c.rows, got, err, c.want)
		}
	}
	if got := AllMissing.String(); got != "operator keys, ledger, pack status list" {
		t.Errorf("String %q", got)
	}
	if got := Missing(0).String(); got != "" {
		t.Errorf("nothing missing: %q", got)
	}
}
