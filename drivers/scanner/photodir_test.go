package scanner_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/packterm/pos/drivers/barcode"
	"github.com/packterm/pos/drivers/scanner"
	"github.com/packterm/pos/internal/regularfile"
)

// pngOf renders text as a QR code and encodes it as PNG.
func pngOf(t testing.TB, text string) []byte {
	t.Helper()
	img, err := barcode.Render(barcode.QRCode, text, barcode.RenderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// hugePNG is a valid PNG header declaring w×h pixels, with no pixel data.
func hugePNG(w, h uint32) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = 8, 0 // 8-bit grey
	chunk := append([]byte("IHDR"), ihdr...)
	binary.Write(&b, binary.BigEndian, uint32(13))
	b.Write(chunk)
	binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(chunk))
	return b.Bytes()
}

// drop puts data in dir as name the way a camera service should: a hidden name, then a
// rename.
func drop(t testing.TB, dir, name string, data []byte) {
	t.Helper()
	tmp := filepath.Join(dir, "."+name+".part")
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, name)); err != nil {
		t.Fatal(err)
	}
}

// TestReadPhotoBounds: a photo declaring more than MaxPhotoPixels is refused from its
// header, at once; bytes that are no image are refused with ErrPhoto.
func TestReadPhotoBounds(t *testing.T) {
	start := time.Now()
	if _, err := scanner.ReadPhoto(hugePNG(100_000, 100_000), "bomb.png"); !errors.Is(err, scanner.ErrPhoto) {
		t.Fatalf("10 gigapixels: %v", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("refusing the header took %v", d)
	}
	if _, err := scanner.ReadPhoto([]byte("GIF89a not really"), "x.gif"); !errors.Is(err, scanner.ErrPhoto) {
		t.Errorf("garbage: %v", err)
	}
	fr, err := scanner.ReadPhoto(pngOf(t, "HELLO"), "ok.png")
	if err != nil || fr.Image.Bounds().Dx() == 0 || !fr.Report {
		t.Errorf("a good PNG: %v %+v", err, fr)
	}
}

// TestPhotoDir: photos dropped into the directory are read once, removed and decoded; a
// hidden file being written is left alone; a file that is no photo and a symbolic link are
// reported and removed (the link's target untouched); a frame with no code is silent; the
// directory may appear after Run started.
func TestPhotoDir(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "photos")
	clk := clockwork.NewFakeClock()
	dec := scanner.BarcodeDecoder(barcode.Options{Formats: barcode.AllFormats})
	p := scanner.NewPhotoDir(dir, dec, scanner.Config{Clock: clk, DedupWindow: -1})
	ctx, cancel := context.WithCancel(context.Background())
	out := make(chan scanner.Event, 8)
	done := make(chan error, 1)
	go func() { done <- p.Run(ctx, out) }()
	next := func() {
		t.Helper()
		if err := clk.BlockUntilContext(ctx, 1); err != nil {
			t.Fatal(err)
		}
		clk.Advance(scanner.PhotoPoll)
	}
	get := func() scanner.Event {
		t.Helper()
		select {
		case ev := <-out:
			return ev
		case <-time.After(10 * time.Second):
			t.Fatal("no event")
		}
		return scanner.Event{}
	}
	next() // no directory yet: reported in the log, looked at again
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	drop(t, dir, "0001.png", pngOf(t, "PACK-7-42"))
	if err := os.WriteFile(filepath.Join(dir, ".0002.jpg.part"), []byte("half a photo"), 0o644); err != nil {
		t.Fatal(err)
	}
	next()
	if ev := get(); ev.Kind != scanner.EventScan || ev.Scan.Text != "PACK-7-42" || ev.Scan.Symbology != "]Q1" {
		t.Fatalf("first photo: %+v", ev)
	}
	if _, err := os.Stat(filepath.Join(dir, "0001.png")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("photo not removed: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, ".0002.jpg.part")); err != nil {
		t.Errorf("the file being written was touched: %v", err)
	}

	secret := filepath.Join(root, "secret.txt")
	if err := os.WriteFile(secret, []byte("not for the scanner"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, filepath.Join(dir, "0003.png")); err != nil {
		t.Fatal(err)
	}
	drop(t, dir, "0004.jpg", []byte("no JPEG at all"))
	drop(t, dir, "0005.png", hugePNG(60_000, 60_000))
	blank := image.NewGray(image.Rect(0, 0, 64, 64))
	var buf bytes.Buffer
	png.Encode(&buf, blank)
	drop(t, dir, "0006.png", buf.Bytes())
	drop(t, dir, "0007.png", pngOf(t, "TICKET"))
	next()
	for i, want := range []error{regularfile.ErrNotRegular, scanner.ErrPhoto, scanner.ErrPhoto} {
		if ev := get(); ev.Kind != scanner.EventError || !errors.Is(ev.Err, want) {
			t.Errorf("bad file %d: %+v, want %v", i, ev, want)
		}
	}
	if ev := get(); ev.Kind != scanner.EventScan || ev.Scan.Text != "TICKET" {
		t.Errorf("after the blank frame: %+v", ev)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "0*")); len(left) != 0 {
		t.Errorf("left in the directory: %v", left)
	}
	if b, err := os.ReadFile(secret); err != nil || string(b) != "not for the scanner" {
		t.Errorf("the link's target: %q %v", b, err)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("Run returned %v", err)
	}
}

// FuzzReadPhoto: any bytes give a frame or an error wrapping ErrPhoto, never a panic, and
// never an image over MaxPhotoPixels.
func FuzzReadPhoto(f *testing.F) {
	f.Add(hugePNG(10, 10))
	f.Add(hugePNG(1<<20, 1<<20))
	f.Add([]byte("GIF89a\x01\x00\x01\x00"))
	f.Add([]byte("\xff\xd8\xff\xe0"))
	f.Fuzz(func(t *testing.T, data []byte) {
		fr, err := scanner.ReadPhoto(data, "fuzz")
		if err != nil {
			if !errors.Is(err, scanner.ErrPhoto) {
				t.Fatalf("error without ErrPhoto: %v", err)
			}
			return
		}
		b := fr.Image.Bounds()
		if int64(b.Dx())*int64(b.Dy()) > scanner.MaxPhotoPixels {
			t.Fatalf("decoded %v", b)
		}
	})
}
