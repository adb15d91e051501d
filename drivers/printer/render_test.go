package printer

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/packterm/pos/drivers/printer/escpos"
)

func TestEncodePC858(t *testing.T) {
	got := encode("10,00 € éàçù ÀÉ « » œ’", PC858)
	want := []byte{'1', '0', ',', '0', '0', ' ', 0xD5, ' ', 0x82, 0x85, 0x87, 0x97, ' ', 0xB7, 0x90, ' ', 0xAE, ' ', 0xAF, ' ', 'o', 'e', '\''}
	if !bytes.Equal(got, want) {
		t.Fatalf("PC858 % X\nwant  % X", got, want)
	}
	if got := encode("€é", WPC1252); !bytes.Equal(got, []byte{0x80, 0xE9}) {
		t.Fatalf("WPC1252 % X", got)
	}
	if got := encode("日\x07", PC858); string(got) != "??" {
		t.Fatalf("unencodable: %q", got)
	}
}

func TestWrap(t *testing.T) {
	got := wrap("Conservez ce reçu : il n'est ni échangé ni remboursé.\nFin", 20)
	want := []string{"Conservez ce reçu :", "il n'est ni échangé", "ni remboursé.", "Fin"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("%q", got)
	}
	if got := wrap("ABCDEFGHIJKLMNOPQRSTUVWXYZ", 10); strings.Join(got, "|") != "ABCDEFGHIJ|KLMNOPQRST|UVWXYZ" {
		t.Fatalf("%q", got)
	}
}

func TestRenderStructure(t *testing.T) {
	b, err := Render(Receipt{Items: []Item{
		Text{Text: "X", Style: Style{Bold: true, DoubleWidth: true}},
		Barcode{Symbology: Code128, Data: "123456"},
		Barcode{Symbology: Code128, Data: "AB{C"},
	}, OpenDrawer: true}, Layout{Columns: 42})
	if err != nil {
		t.Fatal(err)
	}
	cmds, n := escpos.Parse(b)
	if n != len(b) {
		t.Fatal("unparsed tail")
	}
	var ops []string
	var bars []string
	for _, c := range cmds {
		ops = append(ops, c.Op.String())
		if c.Op == escpos.OpBarcode {
			bars = append(bars, string(c.Data))
		}
	}
	s := strings.Join(ops, " ")
	for _, want := range []string{"init code-page left-margin print-width", "bold size text LF bold size", "cut drawer"} {
		if !strings.Contains(s, want) {
			t.Errorf("missing %q in %s", want, s)
		}
	}
	if len(bars) != 2 || bars[0] != "{C\x0c\x22\x38" || bars[1] != "{BAB{{C" {
		t.Errorf("barcode data %q", bars)
	}
	if !bytes.Contains(b, []byte{escpos.GS, 'W', 0xF8, 0x01}) { // 42 × 12 = 504 dots
		t.Error("print width not 504 dots")
	}
}

// Code 128 data switches to set C for the runs of digits that save bars, and reads back
// as the text it was made of.
func TestCode128Sets(t *testing.T) {
	for s, want := range map[string]string{
		"123456":                 "{C\x0c\x22\x38",
		"PACK-0042-7":            "{BPACK-0042-7",
		"T-0042-3FA9-000042-C":   "{BT-0042-3FA9-{C\x00\x00\x2a{B-C",
		"EMU-0001-000001-J":      "{BEMU-0001-{C\x00\x00\x01{B-J",
		"0042-A":                 "{C\x00\x2a{B-A",
		"A-12345":                "{BA-1{C\x17\x2d",
		"12345":                  "{C\x0c\x22{B5",
		"AB{C-1234567":           "{BAB{{C-{C\x0c\x22\x38{B7",
		"T-0042-3FA9-0000042-DJ": "{BT-0042-3FA9-{C\x00\x00\x04{B2-DJ",
	} {
		got, err := code128Data(s)
		if err != nil || string(got) != want {
			t.Errorf("%q: %q %v, want %q", s, got, err, want)
		}
		if back := readCode128(got); back != s {
			t.Errorf("%q reads back as %q", s, back)
		}
	}
}

// readCode128 reads GS k 73 data of sets B and C back to text.
func readCode128(d []byte) string {
	var sb strings.Builder
	set := byte('B')
	for i := 0; i < len(d); i++ {
		if d[i] == '{' && i+1 < len(d) {
			i++
			if d[i] != '{' {
				set = d[i]
				continue
			}
		}
		if set == 'C' {
			sb.WriteString(fmt.Sprintf("%02d", d[i]))
			continue
		}
		sb.WriteByte(d[i])
	}
	return sb.String()
}

func TestRenderErrors(t *testing.T) {
	for name, r := range map[string]Receipt{
		"itf odd":       {Items: []Item{Barcode{Symbology: ITF, Data: "123"}}},
		"c128 nonascii": {Items: []Item{Barcode{Data: "é"}}},
		"empty qr":      {Items: []Item{QR{}}},
		"nil item":      {Items: []Item{nil}},
		"big feed":      {Items: []Item{Feed{Lines: 300}}},
	} {
		if _, err := Render(r, Layout{}); err == nil {
			t.Errorf("%s: rendered", name)
		}
	}
	if _, err := Render(Receipt{}, Layout{Columns: 40}); err == nil {
		t.Error("40 columns accepted")
	}
}

func TestSpoolOrderAndDamage(t *testing.T) {
	dir := t.TempDir()
	s, err := OpenSpool(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"a", "b", "c"} {
		if _, err := s.Put(id, []byte("data-"+id)); err != nil {
			t.Fatal(err)
		}
	}
	list, err := s.List()
	if err != nil || len(list) != 3 || list[0].ID != "a" || list[2].ID != "c" || string(list[1].Data) != "data-b" {
		t.Fatalf("%+v %v", list, err)
	}
	if err := s.Remove(list[0].Seq); err != nil {
		t.Fatal(err)
	}
	// A torn write (no rename happened) leaves only a tmp file: ignored. A damaged file is set aside.
	os.WriteFile(filepath.Join(dir, "tmp-123"), []byte("junk"), 0o600)
	raw, _ := os.ReadFile(filepath.Join(dir, "00000000000000000002.rcpt"))
	raw[len(raw)-1] ^= 0xFF
	os.WriteFile(filepath.Join(dir, "00000000000000000002.rcpt"), raw, 0o600)
	list, err = s.List()
	if err == nil || len(list) != 1 || list[0].ID != "c" {
		t.Fatalf("after damage: %+v %v", list, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "00000000000000000002.rcpt.bad")); err != nil {
		t.Fatal("damaged file not set aside")
	}
	// New receipts go after the last one, never reuse a number.
	if seq, _ := s.Put("d", nil); seq != 4 {
		t.Fatalf("next seq %d", seq)
	}
}

// FuzzDecodeSpool: a spool file either decodes to what was encoded or is refused; never a panic.
func FuzzDecodeSpool(f *testing.F) {
	f.Add(EncodeSpool("vente-1", []byte{0x1B, '@', 'x'}))
	f.Add(EncodeSpool("", nil))
	f.Add([]byte("PKSPOOL1\x00\x05abc"))
	f.Fuzz(func(t *testing.T, b []byte) {
		id, data, err := DecodeSpool(b)
		if err != nil {
			if id != "" || data != nil {
				t.Fatal("error with a result")
			}
			return
		}
		if !bytes.Equal(EncodeSpool(id, data), b) {
			t.Fatal("decoded file does not re-encode to itself")
		}
	})
}

func TestFaultErrorIs(t *testing.T) {
	err := error(&FaultError{Kind: ErrPaperEnd, Pending: 2, Err: os.ErrDeadlineExceeded})
	if !errors.Is(err, ErrPaperEnd) || errors.Is(err, ErrCoverOpen) || !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatal("errors.Is")
	}
	if !strings.Contains(err.Error(), "paper end") || !strings.Contains(err.Error(), "2 receipt(s)") {
		t.Fatal(err.Error())
	}
}

// A raster QR code shrinks its modules to fit the paper, and a code that cannot fit is an
// error, not a clipped image.
func TestRasterQRFits(t *testing.T) {
	l := Layout{Columns: 32, RasterQR: true, Cut: CutNone}
	b, err := Render(Receipt{Items: []Item{QR{Data: strings.Repeat("PK1-0042-", 20), Module: 8}}}, l)
	if err != nil {
		t.Fatal(err)
	}
	cmds, _ := escpos.Parse(b)
	var raster []escpos.Command
	for _, c := range cmds {
		if c.Op == escpos.OpRaster {
			raster = append(raster, c)
		}
		if c.Op == escpos.OpQR || c.Op == escpos.OpCut {
			t.Errorf("%v sent to a printer without it", c.Op)
		}
	}
	if len(raster) != 1 || raster[0].Width > 32*DotsPerColumn || raster[0].Width < 200 {
		t.Fatalf("raster images %+v", raster)
	}
	// Version 40 (185 modules with the quiet zone) at 2-dot modules fits 58 mm (384 dots);
	// in 300 dots it does not.
	if _, err := Render(Receipt{Items: []Item{QR{Data: strings.Repeat("x", 2000)}}}, l); err != nil {
		t.Fatalf("largest QR code on 58 mm: %v", err)
	}
	var w escpos.Builder
	if err := rasterQR(&w, strings.Repeat("x", 2000), 3, 'M', 300); err == nil || !strings.Contains(err.Error(), "wider than") {
		t.Fatalf("too wide: %v", err)
	}
	if _, err := Render(Receipt{Items: []Item{QR{Data: strings.Repeat("x", 3000)}}}, l); err == nil {
		t.Fatal("a QR code beyond version 40 rendered")
	}
}
