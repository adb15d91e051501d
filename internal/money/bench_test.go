package money

import "testing"

func BenchmarkFormat(b *testing.B) {
	for i := range b.N {
		_ = Format(int64(i)*1_37, French)
	}
}

func BenchmarkParse(b *testing.B) {
	for range b.N {
		if _, err := Parse("5 000,50 €"); err != nil {
			b.Fatal(err)
		}
	}
}
