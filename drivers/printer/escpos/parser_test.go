package escpos

import (
	"bytes"
	"testing"
)

func TestParseBuilderRoundTrip(t *testing.T) {
	var w Builder
	w.Init().CodePage(CodePagePC858).Align(AlignCenter).Bold(true).Size(2, 2).Text([]byte("LOTO")).LF().
		Bold(false).Size(1, 1).Underline(1).Reverse(true).Text([]byte("x")).LF().
		BarcodeSetup(80, 2, true).Code128([]byte("{B12AB")).ITF("0123456789").
		QR([]byte("hello"), 6, 'M').FeedLines(3).Drawer(false, 50, 500).FeedCut(3).StatusRequest(4)
	b, err := w.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	cmds, n := Parse(b)
	if n != len(b) {
		t.Fatalf("consumed %d of %d", n, len(b))
	}
	want := []Op{OpInit, OpCodePage, OpAlign, OpBold, OpSize, OpText, OpLF, OpBold, OpSize, OpUnderline,
		OpReverse, OpText, OpLF, OpBarcodeHeight, OpBarcodeWidth, OpHRIPosition, OpHRIFont, OpBarcode,
		OpBarcode, OpQR, OpQR, OpQR, OpQR, OpQR, OpFeedLines, OpDrawer, OpCut, OpStatusRequest}
	if len(cmds) != len(want) {
		t.Fatalf("got %d commands %v, want %d", len(cmds), cmds, len(want))
	}
	for i, c := range cmds {
		if c.Op != want[i] {
			t.Errorf("command %d: %v, want %v", i, c, want[i])
		}
	}
	if string(cmds[17].Data) != "{B12AB" || cmds[17].Arg != BarcodeCode128 {
		t.Errorf("code 128: %+v", cmds[17])
	}
	if string(cmds[18].Data) != "0123456789" || cmds[18].Arg != BarcodeITF {
		t.Errorf("ITF: %+v", cmds[18])
	}
	if string(cmds[22].Data) != "hello" || cmds[22].Arg != 80 {
		t.Errorf("QR store: %+v", cmds[22])
	}
	if cmds[26].Arg != 1 || cmds[26].Args[0] != 3 {
		t.Errorf("cut: %+v", cmds[26])
	}
}

// python-escpos style stream: ESC ! mode, GS v 0 raster, ESC * column image, function A barcode,
// GS V A n cut, ESC d, GS L, ESC 2/3, ESC -, GS B, ESC M.
func TestParseForeignEncoder(t *testing.T) {
	s := []byte{ESC, '@', ESC, '!', 0x38, 'H', 'i', LF, GS, 'L', 0, 0, ESC, '3', 24, ESC, '2',
		ESC, '-', 2, GS, 'B', 1, ESC, 'M', 1,
		GS, 'v', '0', 0, 1, 0, 2, 0, 0xF0, 0x0F,
		ESC, '*', 33, 2, 0, 1, 2, 3, 4, 5, 6,
		GS, 'k', 4, '1', '2', '3', 0,
		ESC, 'd', 2, GS, 'V', 'A', 3}
	cmds, n := Parse(s)
	if n != len(s) {
		t.Fatalf("consumed %d of %d: %v", n, len(s), cmds)
	}
	for _, c := range cmds {
		if c.Op == OpUnknown {
			t.Errorf("unknown: %v", c)
		}
	}
	var raster, col, bc Command
	for _, c := range cmds {
		switch c.Op {
		case OpRaster:
			raster = c
		case OpBitImage:
			col = c
		case OpBarcode:
			bc = c
		}
	}
	if raster.Width != 8 || raster.Height != 2 || !bytes.Equal(raster.Data, []byte{0xF0, 0x0F}) {
		t.Errorf("raster %+v", raster)
	}
	if col.Width != 2 || col.Height != 24 || len(col.Data) != 6 {
		t.Errorf("column image %+v", col)
	}
	if bc.Arg != BarcodeCode39 || string(bc.Data) != "123" {
		t.Errorf("function A barcode %+v", bc)
	}
}

func TestParseUnknownReported(t *testing.T) {
	cmds, n := Parse([]byte{ESC, 0x01, 'A', GS, 0x02, 'B', 0x07, 0x10, 'x'})
	if n != 9 {
		t.Fatalf("consumed %d", n)
	}
	var unk int
	for _, c := range cmds {
		if c.Op == OpUnknown {
			unk++
		}
	}
	if unk != 4 {
		t.Fatalf("%d unknown in %v, want 4", unk, cmds)
	}
}

func TestParserChunks(t *testing.T) {
	var w Builder
	w.Init().Text([]byte("abc")).LF().QR([]byte("payload"), 4, 'L').Raw(GS, 'v', '0', 0, 1, 0, 1, 0, 0xAA)
	b, _ := w.Bytes()
	whole, _ := Parse(b)
	var p Parser
	var got []Command
	for i := range b {
		got = append(got, p.Feed(b[i:i+1])...)
	}
	if len(p.Flush()) != 0 {
		t.Fatal("leftover")
	}
	if ops(mergeText(got)) != ops(whole) {
		t.Fatalf("byte-wise %v\nwhole %v", ops(got), ops(whole))
	}
}

func ops(cs []Command) string {
	var s []byte
	for _, c := range cs {
		s = append(s, c.Op.String()...)
		s = append(s, c.Data...)
		s = append(s, ' ')
	}
	return string(s)
}

// mergeText joins adjacent text commands (a chunk boundary may split a text run).
func mergeText(cs []Command) []Command {
	var out []Command
	for _, c := range cs {
		if c.Op == OpText && len(out) > 0 && out[len(out)-1].Op == OpText {
			out[len(out)-1].Data = append(out[len(out)-1].Data, c.Data...)
			out[len(out)-1].Raw = append(out[len(out)-1].Raw, c.Raw...)
			continue
		}
		out = append(out, c)
	}
	return out
}

func TestBuilderErrors(t *testing.T) {
	for name, f := range map[string]func(*Builder){
		"itf odd":     func(w *Builder) { w.ITF("123") },
		"itf letter":  func(w *Builder) { w.ITF("12a4") },
		"c128 no set": func(w *Builder) { w.Code128([]byte("123")) },
		"size":        func(w *Builder) { w.Size(9, 1) },
		"qr ecc":      func(w *Builder) { w.QR([]byte("x"), 3, 'X') },
		"text ctl":    func(w *Builder) { w.Text([]byte{'a', LF}) },
	} {
		var w Builder
		f(&w)
		if _, err := w.Bytes(); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// FuzzParse checks that any stream parses without panic, that the commands' raw bytes are
// exactly the consumed prefix, and that feeding in two chunks gives the same commands.
func FuzzParse(f *testing.F) {
	var w Builder
	w.Init().CodePage(19).Text([]byte("Gain 10\xd5")).LF().Code128([]byte("{C\x01\x02")).QR([]byte("q"), 3, 'M').FeedCut(2)
	b, _ := w.Bytes()
	f.Add(b, 3)
	f.Add([]byte{GS, 'v', '0', 0, 1, 0, 1, 0, 0xFF, LF}, 5)
	f.Add([]byte{ESC, '*', 33, 1, 0, 1, 2, 3, DLE, EOT, 1}, 2)
	f.Add([]byte{GS, '(', 'L', 11, 0, 48, 112, 48, 1, 1, 49, 8, 0, 1, 0, 0x80, GS, '(', 'L', 2, 0, 48, 50}, 7)
	f.Fuzz(func(t *testing.T, b []byte, cut int) {
		cmds, n := Parse(b)
		if n < 0 || n > len(b) {
			t.Fatalf("consumed %d of %d", n, len(b))
		}
		var raw []byte
		for _, c := range cmds {
			if len(c.Raw) == 0 {
				t.Fatalf("command without bytes: %v", c)
			}
			raw = append(raw, c.Raw...)
		}
		if !bytes.Equal(raw, b[:n]) {
			t.Fatalf("raw bytes differ from consumed input")
		}
		if cut < 0 {
			cut = -cut
		}
		if len(b) > 0 {
			cut %= len(b) + 1
		} else {
			cut = 0
		}
		var p Parser
		got := append(p.Feed(b[:cut]), p.Feed(b[cut:])...)
		if ops(mergeText(got)) != ops(mergeText(cmds)) {
			t.Fatalf("split at %d changes the commands:\n%v\n%v", cut, got, cmds)
		}
	})
}

func TestRasterAndFullCutBuild(t *testing.T) {
	var w Builder
	b, err := w.Raster(2, 3, []byte{0xFF, 0x00, 0x81, 0x42, 0x00, 0xFF}).FeedFullCut(3).Bytes()
	if err != nil {
		t.Fatal(err)
	}
	cmds, n := Parse(b)
	if n != len(b) || len(cmds) != 2 {
		t.Fatalf("%d commands, %d of %d bytes", len(cmds), n, len(b))
	}
	if c := cmds[0]; c.Op != OpRaster || c.Width != 16 || c.Height != 3 || len(c.Data) != 6 {
		t.Errorf("raster %+v", c)
	}
	if c := cmds[1]; c.Op != OpCut || c.Arg != 0 {
		t.Errorf("cut %+v", c)
	}
	var bad Builder
	if _, err := bad.Raster(2, 3, []byte{1}).Bytes(); err == nil {
		t.Error("raster with short data built")
	}
}
