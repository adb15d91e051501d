package retail

import (
	"testing"

	"github.com/packterm/pos/device/locale"
)

// BenchmarkShowWinner is what the terminal does for each screen it shows: the screen in
// its language (the locale's template filled in), then laid out on a 16×2 panel.
func BenchmarkShowWinner(b *testing.B) {
	for _, tag := range locale.Tags() {
		l, _ := locale.Get(tag)
		b.Run(tag, func(b *testing.B) {
			for range b.N {
				if _, err := Layout(WinnerScreen(12_345_67).In(l), 16, 2); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
