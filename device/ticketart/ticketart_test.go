package ticketart

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"image"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/packterm/pos/device/codemap"
	"github.com/packterm/pos/drivers/barcode"
	"github.com/packterm/pos/internal/testblock"
	"github.com/packterm/pos/validate/block"
)

// out is where the images go: $ARTIFACTS/ticketart, else a temporary directory.
func out(t *testing.T) string {
	t.Helper()
	if a := os.Getenv("ARTIFACTS"); a != "" {
		d := filepath.Join(a, "ticketart")
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	return t.TempDir()
}

func save(t *testing.T, dir, name string, img image.Image) {
	t.Helper()
	var b bytes.Buffer
	if err := barcode.WritePNG(&b, img); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestEveryGameRendersAndTheBackScans(t *testing.T) {
	blk, err := testblock.Make(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	dir := out(t)
	dec := barcode.NewDecoder(codemap.DecoderOptions())
	for pos := uint8(1); pos <= 8; pos++ {
		row, err := FindRowFile(context.Background(), blk.Print, 3, pos)
		if err != nil {
			t.Fatal(err)
		}
		f, err := Front(row, blk.Def)
		if err != nil {
			t.Fatalf("game %d: %v", pos, err)
		}
		if f.Bounds().Dx() != Width || f.Bounds().Dy() < 200 || f.Bounds().Dy() >= maxHeight {
			t.Errorf("game %d: front %v", pos, f.Bounds())
		}
		b, err := Back(row)
		if err != nil {
			t.Fatalf("game %d: %v", pos, err)
		}
		save(t, dir, filepath.Base(t.Name())+"-"+string('0'+rune(pos))+"-front.png", f)
		save(t, dir, filepath.Base(t.Name())+"-"+string('0'+rune(pos))+"-back.png", b)
		res, err := dec.Decode(b)
		if err != nil {
			t.Fatalf("game %d: back does not scan: %v", pos, err)
		}
		if res.Text != row.TicketCode && res.Text != row.Validation {
			t.Errorf("game %d: back scans as %q, neither %q nor %q", pos, res.Text, row.TicketCode, row.Validation)
		}
		// The scratched latex area alone gives the validation code.
		qr, err := Latex(row)
		if err != nil {
			t.Fatal(err)
		}
		if res, err := dec.Decode(qr); err != nil || res.Text != row.Validation {
			t.Errorf("game %d: the latex area scans as %q (%v), want the validation code", pos, res.Text, err)
		}
	}
	t.Logf("images in %s", dir)
}

func TestFrontShowsThePlay(t *testing.T) {
	// A winning Shopping ticket: three handbags and their lot (4.5).
	row := block.Row{Pack: 1, Position: 4, Game: 4, Prize: 500, Play: "SM,SM,SM|5",
		Validation: "003G0000EX47KE692AZ7C14P8", PackCode: "000700000002", TicketCode: "10007000000014"}
	z := zonesOf(t, row)
	if len(z) != 2 || len(z[0].items) != 3 || z[0].items[0] != "sac à main" || !strings.Contains(z[1].content, "5 €") {
		t.Errorf("zones %+v", z)
	}
	if _, err := Front(row, nil); err != nil {
		t.Fatal(err)
	}
	row.Play = "not a play"
	if _, err := Front(row, nil); err == nil {
		t.Error("a bad play drew")
	}
}

func zonesOf(t *testing.T, r block.Row) []zone {
	t.Helper()
	p, err := gameParse(r)
	if err != nil {
		t.Fatal(err)
	}
	return zones(p)
}

func TestFindRow(t *testing.T) {
	blk, err := testblock.Make(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	want, _ := blk.Find(func(r block.Row) bool { return r.Pack == 7 && r.Position == 8 })
	got, err := FindRowFile(context.Background(), blk.Print, 7, 8)
	if err != nil || got != want {
		t.Fatalf("row %+v %v, want %+v", got, err, want)
	}
	if _, err := FindRowFile(context.Background(), blk.Print, 8, 1); !errors.Is(err, ErrNotFound) {
		t.Errorf("pack 8 of 0–7: %v", err)
	}
	for name, data := range map[string][]byte{
		"not gzip":  []byte("pack,ticket\n"),
		"no header": gz("1,1,1,500,x,y,z,\"5\"\n"),
		"bad row":   gz(block.PrintHeader + "1,1\n"),
		"long line": gz(block.PrintHeader + strings.Repeat("9", maxLine+10) + "\n"),
		"empty":     gz(""),
	} {
		if _, err := FindRow(context.Background(), bytes.NewReader(data), 1, 1); err == nil || errors.Is(err, ErrNotFound) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func gz(s string) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(s))
	w.Close()
	return b.Bytes()
}

func FuzzFindRow(f *testing.F) {
	f.Add(gz(block.PrintHeader + "1,1,1,500,003G0000EX47KE692AZ7C14P8,000700000002,10007000000014,\"5\"\n"))
	f.Add(gz(block.PrintHeader))
	f.Add([]byte{0x1f, 0x8b})
	f.Fuzz(func(t *testing.T, data []byte) {
		row, err := FindRow(context.Background(), bytes.NewReader(data), 1, 1)
		if err == nil && (row.Pack != 1 || row.Position != 1) {
			t.Fatalf("found %+v", row)
		}
		if err == nil {
			// A row found draws or fails cleanly.
			_, _ = Front(row, nil)
			_, _ = Back(row)
		}
	})
}
