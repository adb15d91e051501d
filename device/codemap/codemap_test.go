package codemap

import (
	"errors"
	"testing"

	"github.com/packterm/pos/drivers/barcode"
	"github.com/packterm/pos/validate/codes"
)

func TestParseByAIMAndLength(t *testing.T) {
	p := codes.PackCode{Block: 7, Pack: 12}
	tk := codes.TicketCodeOf(codes.TicketID{Block: 7, Pack: 12, Position: 3})
	v := codes.ValidationCodeOf(codes.TicketID{Block: 7, Pack: 12, Position: 3}, [codes.SecretSize]byte{1, 2, 3})
	for _, c := range []struct {
		text, aim string
		want      codes.Kind
	}{
		{p.String(), "]C0", codes.KindPack}, {p.String(), "", codes.KindPack},
		{tk.String(), "]I0", codes.KindTicket}, {tk.String(), "", codes.KindTicket},
		{v.String(), "]Q1", codes.KindValidation}, {v.String(), "]d1", codes.KindValidation}, {v.Manual(), "", codes.KindValidation},
	} {
		k, _, err := Parse(c.text, c.aim)
		if err != nil || k != c.want {
			t.Errorf("Parse(%q, %q) = %v, %v; want %v", c.text, c.aim, k, err, c.want)
		}
	}
	if _, _, err := Parse(p.String(), "]E0"); !errors.Is(err, codes.ErrSymbology) {
		t.Errorf("EAN-13 symbology: %v", err)
	}
	// The kind the symbology names decides which errors a bad text gets.
	for _, c := range []struct {
		text, aim string
		kind      codes.Kind
		err       error
	}{
		{"\r\n", "]C0", codes.KindPack, codes.ErrEmpty}, {"12345", "]C0", codes.KindPack, codes.ErrLength},
		{"004201234560", "]I0", codes.KindTicket, codes.ErrLength}, {"004201234560", "]Q1", codes.KindValidation, codes.ErrLength},
		{"004201234560", "]E0", codes.KindUnknown, codes.ErrSymbology}, {"004201234560", "]C", codes.KindUnknown, codes.ErrSymbology},
	} {
		k, _, err := Parse(c.text, c.aim)
		if k != c.kind || !errors.Is(err, c.err) {
			t.Errorf("Parse(%q, %q) = %v, %v; want %v, %v", c.text, c.aim, k, err, c.kind, c.err)
		}
	}
	// A pack code read as QR is no pack: the symbology wins over the length.
	if _, _, err := Parse(p.String(), "]Q1"); err == nil {
		t.Error("pack text under a QR symbology accepted")
	}
}

func TestFormatsAndAIM(t *testing.T) {
	for k, want := range map[codes.Kind]string{codes.KindPack: "]C0", codes.KindTicket: "]I0", codes.KindValidation: "]Q1"} {
		if got := AIM(k); got != want {
			t.Errorf("AIM(%v) = %q, want %q", k, got, want)
		}
		f, _ := Format(k)
		if kk, ok := KindOfAIM(f.Symbology()); !ok || kk != k {
			t.Errorf("round trip %v: %v", k, kk)
		}
	}
	o := DecoderOptions()
	if !o.Formats.Has(barcode.Code128|barcode.ITF|barcode.QRCode|barcode.DataMatrix) || len(o.ITFLengths) != 1 {
		t.Errorf("options %+v", o)
	}
}

// FuzzParse: any scanned text and symbology gives a code of the kind named, or an error;
// never a panic.
func FuzzParse(f *testing.F) {
	for _, s := range [][2]string{{"004201234560", "]C0"}, {"30042012345631", "]I0"}, {"00N0Y4G2VTPVXVR14D2PF2DBS", "]Q1"},
		{"00N0Y4G2VTPVXVR14D2PF2DBS", ""}, {"", ""}, {"x", "]"}, {"004201234560", "]E0"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, text, aim string) {
		k, c, err := Parse(text, aim)
		if err == nil && (c == nil || c.Kind() != k) {
			t.Fatalf("Parse(%q, %q) = %v, %v", text, aim, k, c)
		}
	})
}
