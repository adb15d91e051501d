package retail

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"syscall"
	"testing"
	"unicode/utf8"

	"github.com/packterm/pos/validate/codes"
)

var panels = []struct{ cols, rows int }{{16, 2}, {20, 4}}

// TestEveryScreenFits lays out every screen of the catalogue on both panels: each fits, no
// row is wider than the panel, and every word of the chosen form is there whole.
func TestEveryScreenFits(t *testing.T) {
	for _, n := range Catalogue() {
		for _, p := range panels {
			lines, err := Layout(n.Screen, p.cols, p.rows)
			if err != nil {
				t.Errorf("%s on %dx%d: %v", n.Name, p.cols, p.rows, err)
				continue
			}
			if len(lines) > p.rows {
				t.Errorf("%s on %dx%d: %d rows", n.Name, p.cols, p.rows, len(lines))
			}
			for _, l := range lines {
				if utf8.RuneCountInString(l) > p.cols {
					t.Errorf("%s on %dx%d: row %q too wide", n.Name, p.cols, p.rows, l)
				}
			}
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
	v := Verdict{Outcome: Invalid, Err: err}
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
