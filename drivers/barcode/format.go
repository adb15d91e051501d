package barcode

import (
	"strings"

	"github.com/makiuchi-d/gozxing"
)

// Format is a set of symbologies (a bit mask).
type Format uint8

const (
	Code128    Format = 1 << iota // Code 128, AIM "]C0"
	ITF                           // Interleaved 2 of 5, AIM "]I0"
	QRCode                        // QR code (model 2), AIM "]Q1"
	DataMatrix                    // Data Matrix ECC 200, AIM "]d1"

	// AllFormats is every symbology the package reads.
	AllFormats = Code128 | ITF | QRCode | DataMatrix
	// OneD and TwoD group the linear and matrix symbologies.
	OneD = Code128 | ITF
	TwoD = QRCode | DataMatrix
)

var formatNames = []struct {
	f    Format
	name string
	zx   gozxing.BarcodeFormat
	aim  string
}{
	{Code128, "code128", gozxing.BarcodeFormat_CODE_128, "]C0"},
	{ITF, "itf", gozxing.BarcodeFormat_ITF, "]I0"},
	{QRCode, "qr", gozxing.BarcodeFormat_QR_CODE, "]Q1"},
	{DataMatrix, "datamatrix", gozxing.BarcodeFormat_DATA_MATRIX, "]d1"},
}

// String returns the names of the formats in the set, joined by "+" (e.g. "code128+qr").
func (f Format) String() string {
	var names []string
	for _, n := range formatNames {
		if f&n.f != 0 {
			names = append(names, n.name)
		}
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, "+")
}

// Has reports whether every format of g is in f.
func (f Format) Has(g Format) bool { return f&g == g && g != 0 }

// ParseFormat returns the format named s ("code128", "itf", "qr", "datamatrix"; also
// "code-128", "i2of5", "qrcode", "dm").
func ParseFormat(s string) (Format, bool) {
	switch strings.ToLower(s) {
	case "code128", "code-128", "c128":
		return Code128, true
	case "itf", "i2of5", "interleaved2of5":
		return ITF, true
	case "qr", "qrcode", "qr-code":
		return QRCode, true
	case "datamatrix", "data-matrix", "dm":
		return DataMatrix, true
	}
	return 0, false
}

// Symbology returns the default AIM identifier of a single format.
func (f Format) Symbology() string {
	for _, n := range formatNames {
		if f == n.f {
			return n.aim
		}
	}
	return ""
}

func fromZXing(z gozxing.BarcodeFormat) Format {
	for _, n := range formatNames {
		if n.zx == z {
			return n.f
		}
	}
	return 0
}
