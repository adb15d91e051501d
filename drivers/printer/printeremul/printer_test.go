package printeremul

import (
	"bytes"
	"image"
	"os"
	"strings"
	"testing"

	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/oned"
	"github.com/makiuchi-d/gozxing/qrcode"

	"github.com/packterm/pos/drivers/printer"
	"github.com/packterm/pos/drivers/printer/escpos"
	"github.com/packterm/pos/drivers/printer/internal/golden"
)

const (
	esc = escpos.ESC
	gs  = escpos.GS
)

// pythonEscposStream is what python-escpos (v3, Dummy printer) sends for a typical receipt:
// set() styles through ESC ! / ESC E / ESC - / GS ! / ESC M / GS B / ESC a, magic encoding's
// ESC t, image() as GS v 0 (bitImageRaster) and as ESC * 33 stripes (bitImageColumn),
// barcode() as GS h / GS w / GS H / GS f then GS k function A, qr(native=True) as GS ( k,
// print_and_feed as ESC d, cashdraw(2) as ESC p 0 25 250, cut() as GS V A n and GS V 0.
func pythonEscposStream() []byte {
	var b bytes.Buffer
	w := func(p ...byte) { b.Write(p) }
	s := func(t string) { b.WriteString(t) }
	w(esc, '@')
	w(esc, 't', 2) // PC850 chosen by the magic encoder for "é"
	w(esc, 'a', 1, esc, '!', 0x30)
	s("BIG TITLE\n")
	w(esc, '!', 0, esc, 'E', 1, esc, '-', 1)
	s("Bold underlined\n")
	w(esc, 'E', 0, esc, '-', 0, gs, '!', 0x11, esc, 'a', 0)
	s("Size 2x2\n")
	w(gs, '!', 0, esc, 'M', 1)
	s("Font B small text caf\x82\n") // é in PC850
	w(esc, 'M', 0, gs, 'B', 1)
	s("Inverted\n")
	w(gs, 'B', 0, gs, 'L', 0, 0, esc, '3', 24, esc, '2')
	// GS v 0: 16×4 raster, a frame.
	w(gs, 'v', '0', 0, 2, 0, 4, 0, 0xFF, 0xFF, 0x80, 0x01, 0x80, 0x01, 0xFF, 0xFF)
	// ESC * 33: two stripes of 24 dots, 4 columns each, with LF between.
	w(esc, '3', 24)
	for range 2 {
		w(esc, '*', 33, 4, 0)
		for range 4 {
			w(0xFF, 0x00, 0xFF)
		}
		w('\n')
	}
	w(esc, '2')
	// image(impl="graphics"): GS ( L fn 112 store (8×2 raster), then fn 50 print; density GS |.
	w(gs, '(', 'L', 12, 0, 48, 112, 48, 1, 1, 49, 8, 0, 2, 0, 0xAA, 0x55)
	w(gs, '(', 'L', 2, 0, 48, 50)
	w(gs, '|', 4, esc, 'A', 10, esc, '+', 60, esc, '2')
	// barcode("1234567890128", "EAN13") and barcode("{BABC-123", "CODE128", function_type="B")
	w(gs, 'h', 64, gs, 'w', 3, gs, 'f', 0, gs, 'H', 2)
	w(gs, 'k', 2)
	s("1234567890128")
	w(0)
	w(gs, 'k', 73, 9)
	s("{BABC-123")
	// qr("hello python", native=True, size=3)
	qr := func(fn byte, args ...byte) {
		n := len(args) + 2
		w(gs, '(', 'k', byte(n), byte(n>>8), 49, fn)
		w(args...)
	}
	qr(65, 50, 0)
	qr(67, 3)
	qr(69, 48)
	qr(80, append([]byte{48}, "hello python"...)...)
	qr(81, 48)
	w(esc, 'd', 2, esc, 'p', 0, 25, 250)
	w(gs, 'V', 'A', 3)
	s("second receipt\n")
	w(esc, 'J', 40, gs, 'V', 0)
	return b.Bytes()
}

func TestPythonEscposStream(t *testing.T) {
	stream := pythonEscposStream()
	if golden.Updating() {
		if err := os.WriteFile("testdata/capture/python-escpos.bin", stream, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := New(Config{Columns: 48})
	if reply := p.Write(stream); len(reply) != 0 {
		t.Errorf("unexpected reply % X", reply)
	}
	p.Close()
	if u := p.Unknown(); len(u) != 0 {
		t.Errorf("unknown sequences in a python-escpos stream: %v", u)
	}
	rs := p.Receipts()
	if len(rs) != 2 || rs[0].Cut != "full" || rs[1].Cut != "full" {
		t.Fatalf("%d receipts", len(rs))
	}
	var txt strings.Builder
	for _, r := range rs {
		txt.WriteString(r.Text())
	}
	golden.Check(t, "python-escpos.txt", txt.String())
	r := rs[0]
	var imgs []image.Rectangle
	for _, l := range r.Lines {
		if l.Kind == ImageLine {
			imgs = append(imgs, l.Image.Rect)
		}
	}
	if len(imgs) != 3 || imgs[0].Dx() != 16 || imgs[0].Dy() != 4 || imgs[1].Dx() != 4 || imgs[1].Dy() != 48 ||
		imgs[2].Dx() != 8 || imgs[2].Dy() != 2 {
		t.Errorf("images %v, want 16x4 raster, 4x48 merged stripes, 8x2 graphics", imgs)
	}
	plain := r.PlainText()
	for _, want := range []string{"BIG TITLE", "café", "[EAN13 1234567890128]", "[Code128 ABC-123]", "[QR hello python]"} {
		if !strings.Contains(plain, want) {
			t.Errorf("missing %q in\n%s", want, plain)
		}
	}
	if len(r.Drawer) != 1 || r.Drawer[0].OnMs != 50 {
		t.Errorf("drawer %+v", r.Drawer)
	}
}

func TestUnknownSequencesReported(t *testing.T) {
	p := New(Config{})
	p.Write([]byte{esc, 0x01, 'a', '\n', gs, 'z', 1, esc, 'L', esc, 't', 99, 'b', '\n', 0x07, gs, 'V', 0})
	u := p.Unknown()
	// ESC 01, GS z (its length unknown, so 01 after it is reported too), page mode, code page 99, BEL.
	if len(u) != 6 {
		t.Fatalf("unknown %v, want 6", u)
	}
	rs := p.Receipts()
	if len(rs) != 1 || !strings.Contains(rs[0].Text(), "unknown sequence: 1B 01") {
		t.Fatalf("receipt does not list unknown sequences:\n%s", rs[0].Text())
	}
}

func TestStatusAndFaults(t *testing.T) {
	p := New(Config{})
	ask := func(n byte) byte {
		r := p.Write([]byte{escpos.DLE, escpos.EOT, n})
		if len(r) != 1 {
			t.Fatalf("reply % X", r)
		}
		return r[0]
	}
	if ask(1) != 0x12 || ask(2) != 0x12 || ask(4) != 0x12 {
		t.Fatal("ready printer reports a fault")
	}
	p.SetCoverOpen(true)
	if ask(1) != 0x1A || ask(2) != 0x16 {
		t.Fatalf("cover open: %#x %#x", ask(1), ask(2))
	}
	p.SetCoverOpen(false)
	p.SetNearEnd(true)
	if ask(4) != 0x1E {
		t.Fatalf("near end %#x", ask(4))
	}
	p.PaperOut()
	if ask(4) != 0x7E || ask(2)&0x20 == 0 {
		t.Fatalf("paper end %#x %#x", ask(4), ask(2))
	}
	// While out of paper text waits; a status request still answers; loading paper prints it.
	p.Write([]byte("waiting\n"))
	if p.LinesPrinted() != 0 {
		t.Fatal("printed without paper")
	}
	p.LoadPaper()
	if p.LinesPrinted() != 1 || !strings.Contains(p.Current().PlainText(), "waiting") {
		t.Fatal("waiting text not printed after loading paper")
	}
	// Clear buffers (DLE DC4 8) tears the paper off and answers 37 25 00.
	p.PaperOutAfter(1)
	p.Write([]byte("one\ntwo\n"))
	if r := p.Write([]byte(escpos.ClearBuffers)); string(r) != escpos.ClearBuffersReply {
		t.Fatalf("clear buffers reply % X", r)
	}
	rs := p.Receipts()
	if len(rs) != 1 || !rs[0].Interrupted || strings.Contains(rs[0].PlainText(), "two") {
		t.Fatalf("after clear: %+v", rs)
	}
	p.LoadPaper()
	if strings.Contains(p.Current().PlainText(), "two") {
		t.Fatal("cleared text printed")
	}
}

// The PNG must be readable: barcodes and QR codes drawn in it decode to their payloads.
func TestPNGCodesDecode(t *testing.T) {
	data, err := printer.Render(printer.TestPage(printer.Layout{Columns: 48}, true, golden.TestPageWords()), printer.Layout{Columns: 48})
	if err != nil {
		t.Fatal(err)
	}
	p := New(Config{Columns: 48})
	p.Write(data)
	rs := p.Receipts()
	if len(rs) != 1 {
		t.Fatalf("%d receipts", len(rs))
	}
	var buf bytes.Buffer
	if err := rs[0].WritePNG(&buf); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, l := range rs[0].Lines {
		var r gozxing.Reader
		switch l.Kind {
		case BarcodeLine:
			r = oned.NewCode128Reader()
			if l.Symbology == "ITF" {
				r = oned.NewITFReader()
			}
		case QRLine:
			r = qrcode.NewQRCodeReader()
		default:
			continue
		}
		img, err := lineImage(l, 576)
		if err != nil {
			t.Fatal(err)
		}
		bmp, _ := gozxing.NewBinaryBitmapFromImage(img)
		res, err := r.Decode(bmp, map[gozxing.DecodeHintType]any{gozxing.DecodeHintType_TRY_HARDER: true})
		if err != nil {
			t.Errorf("%s %q not readable in the PNG: %v", l.Symbology, l.Data, err)
			continue
		}
		if res.GetText() != l.Data {
			t.Errorf("%s decodes to %q, want %q", l.Symbology, res.GetText(), l.Data)
		}
		n++
	}
	if n != 3 {
		t.Fatalf("%d codes checked, want 3", n)
	}
}

// FuzzPrinter: any byte stream, in any two chunks: no panic, the text render works, and the
// paper is the same whether the stream came whole or split.
func FuzzPrinter(f *testing.F) {
	f.Add(pythonEscposStream(), 100)
	f.Add(nodeThermalPrinterStream(), 56)
	data, _ := printer.Render(printer.TestPage(printer.Layout{}, true, golden.TestPageWords()), printer.Layout{})
	f.Add(data, 17)
	f.Add([]byte{escpos.DLE, escpos.EOT, 4, gs, 'v', '0', 3, 1, 0, 1, 0, 0xAA, esc, '*', 0, 1, 0, 0xF0}, 5)
	f.Fuzz(func(t *testing.T, b []byte, cut int) {
		if cut < 0 {
			cut = -cut
		}
		cut %= len(b) + 1
		a, c := New(Config{Logger: discard}), New(Config{Logger: discard})
		ra := a.Write(b)
		rc := append(c.Write(b[:cut]), c.Write(b[cut:])...)
		a.Close()
		c.Close()
		if !bytes.Equal(ra, rc) {
			t.Fatalf("replies differ when split")
		}
		var ta, tc strings.Builder
		for _, r := range a.Receipts() {
			ta.WriteString(r.Text())
		}
		for _, r := range c.Receipts() {
			tc.WriteString(r.Text())
		}
		if ta.String() != tc.String() {
			t.Fatalf("paper differs when split:\n%s\n%s", ta.String(), tc.String())
		}
	})
}

// Paper running out on a wrapped line keeps the rest of the text: it prints after the new roll
// goes in (when the host does not clear the buffers).
func TestPaperEndInsideWrappedText(t *testing.T) {
	p := New(Config{Columns: 42, Logger: discard})
	p.PaperOutAfter(1)
	long := strings.Repeat("0123456789", 10) // 100 characters: three lines of 42
	p.Write([]byte(long + "\n"))
	if got := p.Current().PlainText(); got != long[:42]+"\n" {
		t.Fatalf("before loading paper: %q", got)
	}
	p.LoadPaper()
	var all strings.Builder
	for _, l := range p.Current().Lines {
		for _, s := range l.Segments {
			all.WriteString(s.Text)
		}
	}
	if all.String() != long {
		t.Fatalf("after loading paper: %q", all.String())
	}
}

// feedAfterCutStream is what several widely used encoders send: a line feed after GS V, and
// more paper fed after the last cut with nothing printed on it.
func feedAfterCutStream() []byte {
	var b bytes.Buffer
	b.Write([]byte{esc, '@'})
	b.WriteString("first receipt\n")
	b.Write([]byte{esc, 'd', 3, gs, 'V', 65, 0, '\n'})
	b.WriteString("second receipt\n")
	b.Write([]byte{esc, 'd', 3, gs, 'V', 66, 0, '\n', '\n', esc, 'd', 4})
	b.WriteString("   \n") // spaces print nothing either
	return b.Bytes()
}

func TestBlankFeedAfterLastCutIsNoReceipt(t *testing.T) {
	stream := feedAfterCutStream()
	if golden.Updating() {
		if err := os.WriteFile("testdata/capture/feed-after-cut.bin", stream, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	capture, err := os.ReadFile("testdata/capture/feed-after-cut.bin")
	if err != nil || !bytes.Equal(capture, stream) {
		t.Fatalf("capture file out of date (go test -update): %v", err)
	}
	p := New(Config{Logger: discard})
	p.Write(capture)
	p.Close()
	rs := p.Receipts()
	if len(rs) != 2 {
		t.Fatalf("%d receipts, want 2 (the paper fed after the last cut is not one)", len(rs))
	}
	if !strings.Contains(rs[0].PlainText(), "first") || !strings.Contains(rs[1].PlainText(), "second") ||
		rs[0].Cut != "full" || rs[1].Cut != "partial" {
		t.Fatalf("receipts:\n%s%s", rs[0].Text(), rs[1].Text())
	}
	// Blank paper before printed lines is the top of that receipt, not dropped.
	if rs[1].Lines[0].Kind != TextLine || len(rs[1].Lines[0].Segments) != 0 {
		t.Errorf("second receipt does not start with the fed line: %+v", rs[1].Lines[0])
	}
	// A drawer kick after the cut and the feed still belongs to the receipt just cut.
	p = New(Config{Logger: discard})
	p.Write(append(capture, esc, 'p', 0, 25, 250))
	p.Close()
	if rs := p.Receipts(); len(rs) != 2 || len(rs[1].Drawer) != 1 {
		t.Fatalf("drawer kick after a blank feed: %d receipts", len(rs))
	}
	// Printed paper after the last cut, even a line of underlined spaces, is a receipt.
	p = New(Config{Logger: discard})
	p.Write(append(capture, esc, '-', 1, ' ', ' ', '\n'))
	p.Close()
	if rs := p.Receipts(); len(rs) != 3 || rs[2].Cut != "" {
		t.Fatalf("uncut printed paper: %d receipts", len(rs))
	}
}

// nodeThermalPrinterStream is the shape of node-thermal-printer's capture (EPSON type): its
// init, a code page, centred bold title, text, its vertical tab (ESC d 4) and full cut
// (GS V 0), then GS w 0 and a stray 0x01 after the cut, which print nothing.
func nodeThermalPrinterStream() []byte {
	var b bytes.Buffer
	b.Write([]byte{esc, '@', esc, 't', 19, esc, 'a', 1, esc, 'E', 1})
	b.WriteString("LOTERIE\n")
	b.Write([]byte{esc, 'E', 0, esc, 'a', 0})
	b.WriteString("Paiement          10,00\n")
	b.Write([]byte{esc, 'd', 4, gs, 'V', 0})
	b.Write([]byte{gs, 'w', 0, 0x01})
	return b.Bytes()
}

// Sequences that print nothing after the last cut are no receipt (issue 31: the capture's
// trailing GS w 0 and 0x01 made a second, empty receipt in posctl printer render); they
// stay reported in Unknown. Paper printed after them is still a receipt.
func TestTrailingBytesAfterLastCutAreNoReceipt(t *testing.T) {
	stream := nodeThermalPrinterStream()
	if golden.Updating() {
		if err := os.WriteFile("testdata/capture/node-thermal-printer.bin", stream, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	capture, err := os.ReadFile("testdata/capture/node-thermal-printer.bin")
	if err != nil || !bytes.Equal(capture, stream) {
		t.Fatalf("capture file out of date (go test -update): %v", err)
	}
	render := func(b []byte) *Printer {
		p := New(Config{Logger: discard})
		p.Write(b)
		p.Close()
		return p
	}
	p := render(capture)
	rs := p.Receipts()
	if len(rs) != 1 || rs[0].Cut != "full" || !strings.Contains(rs[0].PlainText(), "LOTERIE") {
		t.Fatalf("%d receipts, want 1 (the bytes after the last cut print nothing)", len(rs))
	}
	if u := p.Unknown(); len(u) != 2 {
		t.Errorf("the trailing sequences are not reported: %v", u)
	}
	// Split anywhere, the same.
	for i := range capture {
		c := New(Config{Logger: discard})
		c.Write(capture[:i])
		c.Write(capture[i:])
		c.Close()
		if n := len(c.Receipts()); n != 1 {
			t.Fatalf("split at %d: %d receipts", i, n)
		}
	}
	// Printed paper after the junk is a receipt, uncut, with the junk listed on it.
	p = render(append(capture, []byte("suite\n")...))
	if rs := p.Receipts(); len(rs) != 2 || rs[1].Cut != "" || !strings.Contains(rs[1].PlainText(), "suite") || len(rs[1].Unknown) != 2 {
		t.Fatalf("paper printed after the junk: %d receipts", len(rs))
	}
	// A drawer kick after the junk belongs to the receipt just cut, as after a feed.
	p = render(append(capture, esc, 'p', 0, 25, 250))
	if rs := p.Receipts(); len(rs) != 1 || len(rs[0].Drawer) != 1 {
		t.Fatalf("drawer kick after the junk: %d receipts", len(rs))
	}
	// Junk alone, without a cut, is no receipt either; torn off, neither.
	if rs := render([]byte{esc, '@', gs, 'w', 0, 0x01, '\n'}).Receipts(); len(rs) != 0 {
		t.Errorf("junk alone: %d receipts", len(rs))
	}
	p = New(Config{Logger: discard})
	p.Write([]byte{gs, 'w', 0, 0x01})
	p.TearOff()
	if rs := p.Receipts(); len(rs) != 0 {
		t.Errorf("junk torn off: %d receipts", len(rs))
	}
}
