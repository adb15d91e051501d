package retail

import (
	"errors"
	"testing"
	"unicode/utf8"
)

// FuzzLayout: any text either fits (never wider or taller than the panel) or is refused with
// ErrDoesNotFit; never a panic.
func FuzzLayout(f *testing.F) {
	for _, s := range []string{"GRATTEZ ET SCANNEZ LE CODE", "PAYÉ " + Money(1_000_00), "", "   ", "ABCDEFGHIJKLMNOPQRSTU", "\u00a0\u00a0"} {
		f.Add(s, "LE CODE")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		for _, p := range panels {
			lines, err := Layout(Text(a, b).Or(b), p.cols, p.rows)
			if err != nil {
				if !errors.Is(err, ErrDoesNotFit) {
					t.Fatalf("error %v", err)
				}
				continue
			}
			if len(lines) > p.rows {
				t.Fatalf("%d rows on %dx%d", len(lines), p.cols, p.rows)
			}
			for _, l := range lines {
				if utf8.RuneCountInString(l) > p.cols {
					t.Fatalf("row %q wider than %d", l, p.cols)
				}
			}
		}
	})
}
