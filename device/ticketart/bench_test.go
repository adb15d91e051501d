package ticketart

import (
	"context"
	"testing"

	"github.com/packterm/pos/internal/testblock"
	"github.com/packterm/pos/validate/block"
)

// BenchmarkFrontAndBack draws both faces of the richest ticket (game 7, five zones).
func BenchmarkFrontAndBack(b *testing.B) {
	blk, err := testblock.Make(context.Background(), b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	row, err := blk.Find(func(r block.Row) bool { return r.Game == 7 })
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Front(row, blk.Def); err != nil {
			b.Fatal(err)
		}
		if _, err := Back(row); err != nil {
			b.Fatal(err)
		}
	}
}
