package main

import (
	"context"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/packterm/pos/device/codemap"
	"github.com/packterm/pos/drivers/barcode"
	"github.com/packterm/pos/internal/testblock"
	"github.com/packterm/pos/validate/block"
)

func TestTicketRender(t *testing.T) {
	blk, err := testblock.Make(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "t")
	o, err := run(t, "ticket", "render", blk.Print, "7/2/5", "--out", out)
	if err != nil {
		t.Fatalf("%v\n%s", err, o)
	}
	if !strings.Contains(o, "block 7 pack 2 ticket 5 (game 5) in ") {
		t.Errorf("output %q", o)
	}
	row, _ := blk.Find(func(r block.Row) bool { return r.Pack == 2 && r.Position == 5 })
	scan := func(name string) string {
		f, err := os.Open(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		img, err := png.Decode(f)
		if err != nil {
			t.Fatal(err)
		}
		res, err := barcode.NewDecoder(codemap.DecoderOptions()).Decode(img)
		if err != nil {
			t.Errorf("%s: %v", name, err)
		}
		return res.Text
	}
	// Both faces side by side show the ticket code and, scratched, the validation code:
	// the camera may read either.
	if got := scan("ticket.png"); got != row.TicketCode && got != row.Validation {
		t.Errorf("ticket.png scans as %q, want the ticket code %q or the validation code", got, row.TicketCode)
	}
	if got := scan("latex.png"); got != row.Validation {
		t.Errorf("latex.png scans as %q, want the validation code", got)
	}
	if _, err := os.Stat(filepath.Join(out, "front.png")); err != nil {
		t.Error(err)
	}
	for _, bad := range [][]string{
		{"ticket", "render", blk.Print, "8/2/5", "--out", out},  // another block
		{"ticket", "render", blk.Print, "7/2/9", "--out", out},  // no position 9
		{"ticket", "render", blk.Print, "7/99/1", "--out", out}, // no such pack
		{"ticket", "render", blk.Ledger, "7/2/5", "--out", out}, // not a printer's file
		{"ticket", "render", blk.Print, "7/2/5"},                // no --out
	} {
		if o, err := run(t, bad...); err == nil {
			t.Errorf("%v: no error\n%s", bad, o)
		}
	}
}

func TestParseTicketPath(t *testing.T) {
	if b, p, q, err := parseTicketPath("7/1499999/8"); err != nil || b != 7 || p != 1499999 || q != 8 {
		t.Errorf("%d %d %d %v", b, p, q, err)
	}
	for _, s := range []string{"", "7/1", "7/1/0", "7/1/9", "x/1/1", "7/-1/1", "70000/1/1", "7/1/1/1"} {
		if _, _, _, err := parseTicketPath(s); err == nil {
			t.Errorf("%q accepted", s)
		}
	}
}

func FuzzParseTicketPath(f *testing.F) {
	f.Add("7/0/1")
	f.Add("65535/4294967295/8")
	f.Add("7//1")
	f.Fuzz(func(t *testing.T, s string) {
		b, p, q, err := parseTicketPath(s)
		if err != nil {
			return
		}
		b2, p2, q2, err := parseTicketPath(fmt.Sprintf("%d/%d/%d", b, p, q))
		if q < 1 || q > 8 || err != nil || b2 != b || p2 != p || q2 != q {
			t.Fatalf("%q -> %d/%d/%d", s, b, p, q)
		}
	})
}
