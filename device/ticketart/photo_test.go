package ticketart

import (
	"context"
	"testing"

	"github.com/packterm/pos/device/codemap"
	"github.com/packterm/pos/drivers/barcode"
	"github.com/packterm/pos/internal/testblock"
)

func TestPhotoScans(t *testing.T) {
	blk, err := testblock.Make(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	dec := barcode.NewDecoder(codemap.DecoderOptions())
	for _, row := range blk.Rows[:8] {
		f, err := Front(row, blk.Def)
		if err != nil {
			t.Fatal(err)
		}
		b, err := Back(row)
		if err != nil {
			t.Fatal(err)
		}
		res, err := dec.Decode(Photo(f, b))
		t.Logf("game %d: %q (%v) ticket %s validation %s", row.Game, res.Text, err, row.TicketCode, row.Validation)
		if err != nil || (res.Text != row.TicketCode && res.Text != row.Validation) {
			t.Errorf("game %d: photo scans as %q (%v)", row.Game, res.Text, err)
		}
	}
}
