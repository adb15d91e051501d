package daemon

import (
	"image/jpeg"
	"os"
	"path/filepath"
	"testing"

	"github.com/packterm/pos/drivers/barcode"
)

// TestCameraPhotosOnBoard: with [scanner] photos set, a photo a camera service drops into
// the directory is a scan beside the serial scanner: a pack code photographed (a JPEG, as a
// camera writes) offers the pack for sale, and the photo is gone from the directory.
func TestCameraPhotosOnBoard(t *testing.T) {
	tb := newTestBlock(t, 9)
	b := newBoard(t, tb)
	b.installLedger(t, tb)
	b.installStatus(t, tb)
	photos := filepath.Join(b.dir, "photos")
	if err := os.Mkdir(photos, 0o700); err != nil {
		t.Fatal(err)
	}
	b.cfg.Scanner.Photos = photos
	d := b.start(t, Options{})
	d.scan(b, packCode(4), "PAQUET ANNULÉ") // the serial scanner still works

	img, err := barcode.Render(barcode.Code128, packCode(2), barcode.RenderOptions{Module: 3})
	if err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(photos, ".frame-0001.jpg")
	f, err := os.Create(tmp)
	if err != nil {
		t.Fatal(err)
	}
	if err := jpeg.Encode(f, img, &jpeg.Options{Quality: 80}); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(photos, "frame-0001.jpg")); err != nil {
		t.Fatal(err)
	}
	d.expect("PAQUET 2", "PRIX 10,00 €")
	wait(t, "the photo removed", func() bool {
		left, _ := filepath.Glob(filepath.Join(photos, "*"))
		return len(left) == 0
	})
	if err := d.stop(); err != nil {
		t.Fatal(err)
	}
}
