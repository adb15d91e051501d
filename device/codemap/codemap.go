package codemap

import (
	"fmt"

	"github.com/packterm/pos/drivers/barcode"
	"github.com/packterm/pos/validate/codes"
)

// entry is one code kind and the symbologies that carry it (the first is the one printed).
type entry struct {
	kind    codes.Kind
	formats []barcode.Format
	aim     []byte // AIM symbology letters (the character after "]")
}

var table = []entry{
	{codes.KindPack, []barcode.Format{barcode.Code128}, []byte{'C'}},
	{codes.KindTicket, []barcode.Format{barcode.ITF}, []byte{'I'}},
	{codes.KindValidation, []barcode.Format{barcode.QRCode, barcode.DataMatrix}, []byte{'Q', 'd'}},
}

// Format is the symbology a code of kind k is printed with.
func Format(k codes.Kind) (barcode.Format, bool) {
	for _, e := range table {
		if e.kind == k {
			return e.formats[0], true
		}
	}
	return 0, false
}

// AIM is the AIM identifier a scanner sends for a code of kind k ("]C0", "]I0", "]Q1").
func AIM(k codes.Kind) string {
	f, ok := Format(k)
	if !ok {
		return ""
	}
	return f.Symbology()
}

// KindOfAIM tells which kind of code a symbology carries; KindUnknown for "" (the scanner
// sends no identifier) and for symbologies that carry none of ours (ok false).
func KindOfAIM(aim string) (k codes.Kind, ok bool) {
	if aim == "" {
		return codes.KindUnknown, true
	}
	if len(aim) != 3 || aim[0] != ']' {
		return codes.KindUnknown, false
	}
	for _, e := range table {
		for _, c := range e.aim {
			if aim[1] == c {
				return e.kind, true
			}
		}
	}
	return codes.KindUnknown, false
}

// DecoderOptions are the image decoder's settings for our codes: every symbology of the
// table, ITF only at the ticket code's length (ITF has no check of its own), and Code 128
// read by fitting (when blur took its edges) at the pack code's length.
func DecoderOptions() barcode.Options {
	var f barcode.Format
	for _, e := range table {
		for _, g := range e.formats {
			f |= g
		}
	}
	return barcode.Options{Formats: f, ITFLengths: []int{codes.TicketLen}, Code128Digits: []int{codes.PackLen}}
}

// Parse tells which of our codes a scan holds and parses it: the symbology decides the kind
// when there is one, else the text's length does. A symbology that carries none of our codes
// is refused with codes.ErrSymbology.
func Parse(text, aim string) (codes.Kind, codes.Code, error) {
	k, ok := KindOfAIM(aim)
	if !ok {
		return codes.KindUnknown, nil, &codes.Error{Err: codes.ErrSymbology, Detail: fmt.Sprintf("symbology %q", aim)}
	}
	switch k {
	case codes.KindPack:
		c, err := codes.ParsePack(text)
		if err != nil {
			return k, nil, err
		}
		return k, c, nil
	case codes.KindTicket:
		c, err := codes.ParseTicket(text)
		if err != nil {
			return k, nil, err
		}
		return k, c, nil
	case codes.KindValidation:
		c, err := codes.ParseValidation(text)
		if err != nil {
			return k, nil, err
		}
		return k, c, nil
	}
	return codes.Parse(text)
}
