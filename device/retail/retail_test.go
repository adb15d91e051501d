package retail

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/packterm/pos/device/locale"
	"github.com/packterm/pos/drivers/display"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/decide"
)

var panels = []struct{ cols, rows int }{{16, 2}, {20, 4}}

// TestEveryScreenFits lays out every screen of the catalogue in every language on both
// panels: each fits, no row is wider than the panel, every word of the chosen form is
// there whole, and every character is one the HD44780 shows as itself: a character of its
// A00 ROM or a glyph of the display driver's font, at most 8 of those on one screen (the
// controller's CGRAM slots).
func TestEveryScreenFits(t *testing.T) {
	font := display.DefaultFont()
	for _, tag := range locale.Tags() {
		l, err := locale.Get(tag)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range Catalogue() {
			for _, k := range n.Screen.keys() {
				if l.Template(k) == "" {
					t.Errorf("%s: %s: no text %q", tag, n.Name, k)
				}
			}
			for _, p := range panels {
				lines, err := Layout(n.Screen.In(l), p.cols, p.rows)
				if err != nil {
					t.Errorf("%s: %s on %dx%d: %v", tag, n.Name, p.cols, p.rows, err)
					continue
				}
				if len(lines) > p.rows {
					t.Errorf("%s: %s on %dx%d: %d rows", tag, n.Name, p.cols, p.rows, len(lines))
				}
				glyphs := map[rune]bool{}
				for _, row := range lines {
					if utf8.RuneCountInString(row) > p.cols {
						t.Errorf("%s: %s on %dx%d: row %q too wide", tag, n.Name, p.cols, p.rows, row)
					}
					for _, r := range row {
						_, inFont := font[r]
						switch {
						case inFont:
							glyphs[r] = true
						case !display.InROM(r):
							t.Errorf("%s: %s: row %q: %q is neither in the A00 ROM nor in the display's font", tag, n.Name, row, r)
						}
					}
				}
				if len(glyphs) > 8 {
					t.Errorf("%s: %s on %dx%d: %d custom glyphs, the panel holds 8", tag, n.Name, p.cols, p.rows, len(glyphs))
				}
			}
		}
	}
}

// keys are the locale keys s says: its own and those of its arguments.
func (s Screen) keys() []locale.Key {
	var ks []locale.Key
	if s.key != "" {
		ks = append(ks, s.key)
	}
	for _, a := range s.args {
		switch x := a.(type) {
		case locale.Key:
			ks = append(ks, x)
		case locale.List:
			ks = append(ks, x...)
		}
	}
	return ks
}

// TestScreensSpeakTheLocale: a screen is in the language it is laid out in, French by
// default, and every amount and date the locale's way.
func TestScreensSpeakTheLocale(t *testing.T) {
	en, _ := locale.Get("en")
	at := time.Date(2026, 12, 31, 23, 59, 0, 0, time.UTC)
	for _, c := range []struct {
		s    Screen
		l    *locale.Locale
		cols int
		want string
	}{
		{WinnerScreen(1_234_50), nil, 20, "GAGNANT|1 234,50 €|OK : PAYER|ANNULER : NON"},
		{WinnerScreen(1_234_50), en, 20, "WINNER|€1,234.50|OK: PAY|CANCEL: NO"},
		{AlreadyPaidScreen(at, "T1"), en, 20, "ALREADY PAID|ON 31 Dec 23:59|TERMINAL T1"},
		{ReprintChoice(7, SaleReceipt), en, 20, "RECEIPT NO. 7|SALE|OK: DUPLICATE|CANCEL: PREVIOUS"},
		{NotACode(Verdict{Outcome: decide.Invalid, Err: codes.ErrCheck}), en, 20, "INVALID CODE|TYPING ERROR"},
	} {
		got, err := Layout(c.s.In(c.l), c.cols, 4)
		if err != nil || strings.Join(got, "|") != c.want {
			t.Errorf("%q %v, want %q", got, err, c.want)
		}
	}
}

func TestLayoutKeepsAmountsAndWords(t *testing.T) {
	got, err := Layout(TicketHint(), 16, 2)
	if err != nil || strings.Join(got, "|") != "GRATTEZ ET|SCANNEZ LE CODE" {
		t.Errorf("16x2 hint %q %v", got, err)
	}
	got, _ = Layout(TicketHint(), 20, 4)
	if strings.Join(got, "|") != "GRATTEZ ET SCANNEZ|LE CODE" {
		t.Errorf("20x4 hint %q", got)
	}
	got, _ = Layout(WinnerScreen(12_50), 16, 2)
	if strings.Join(got, "|") != "GAGNANT 12,50 €|OK : PAYER" {
		t.Errorf("16x2 winner %q", got)
	}
	got, _ = Layout(WinnerScreen(1_000_00), 16, 2)
	if !strings.Contains(strings.Join(got, "|"), "1 000,00 €") {
		t.Errorf("16x2 winner 1000 %q", got)
	}
	// A bound amount moves to the next row whole rather than split.
	got, _ = Layout(Text("PAYÉ "+Money(100_000_00)), 16, 2)
	if strings.Join(got, "|") != "PAYÉ|100 000,00 €" {
		t.Errorf("bound amount %q", got)
	}
	if _, err := Layout(Text("ABCDEFGHIJKLMNOPQ"), 16, 2); !errors.Is(err, ErrDoesNotFit) {
		t.Errorf("a 17-letter word fits 16 columns: %v", err)
	}
	if _, err := Layout(Text("A", "B", "C"), 16, 2); !errors.Is(err, ErrDoesNotFit) {
		t.Errorf("3 rows fit 2: %v", err)
	}
}

func TestMoney(t *testing.T) {
	for c, want := range map[int64]string{0: "0,00 €", 5: "0,05 €", 12_50: "12,50 €", 30_00: "30,00 €",
		1_000_00: "1 000,00 €", 100_000_00: "100 000,00 €", -2_50: "-2,50 €"} {
		if got := Plain(Money(c)); got != want {
			t.Errorf("Money(%d) = %q, want %q", c, got, want)
		}
	}
}

func TestReasonsFrench(t *testing.T) {
	_, err := codes.ParseValidation("ABCDE-FGHJK-MNPQR-STVWX-YZ013")
	v := Verdict{Outcome: decide.Invalid, Err: err}
	if v.Reason() == "" || strings.Contains(v.Reason(), "check") {
		t.Errorf("reason %q", v.Reason())
	}
	if v.Headline() != "CODE INVALIDE" {
		t.Errorf("headline %q", v.Headline())
	}
}

// TestStartFaultOf: a read-only file system or a refused permission is the read-only start
// fault, a full disk the disk-full one, wrapped or not.
func TestStartFaultOf(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want StartFault
	}{
		{&fs.PathError{Op: "open", Path: "/var/lib/posd/journal/journal.db", Err: syscall.EROFS}, StartReadOnly},
		{fmt.Errorf("journal: open: %w", &fs.PathError{Op: "open", Path: "x", Err: syscall.EACCES}), StartReadOnly},
		{fmt.Errorf("journal: %w", syscall.ENOSPC), StartDiskFull},
		{errors.New("board: GPIO not found"), StartFailed},
	} {
		if got := StartFaultOf(tc.err); got != tc.want {
			t.Errorf("%v: %v, want %v", tc.err, got, tc.want)
		}
	}
}
