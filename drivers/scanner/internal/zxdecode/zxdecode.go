package zxdecode

import (
	"errors"
	"image"

	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/oned"
	"github.com/makiuchi-d/gozxing/qrcode"
)

// Decoder tries Code 128, ITF (lengths 6 to 30) and QR in turn.
type Decoder struct{}

// Decode returns the text and AIM identifier of the first code found.
func (Decoder) Decode(img image.Image) (string, string, error) {
	bmp, err := gozxing.NewBinaryBitmapFromImage(img)
	if err != nil {
		return "", "", err
	}
	hints := map[gozxing.DecodeHintType]any{gozxing.DecodeHintType_TRY_HARDER: true}
	itf := map[gozxing.DecodeHintType]any{gozxing.DecodeHintType_TRY_HARDER: true,
		gozxing.DecodeHintType_ALLOWED_LENGTHS: []int{6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30}}
	for _, r := range []struct {
		reader gozxing.Reader
		hints  map[gozxing.DecodeHintType]any
	}{{oned.NewCode128Reader(), hints}, {oned.NewITFReader(), itf}, {qrcode.NewQRCodeReader(), hints}} {
		res, err := r.reader.Decode(bmp, r.hints)
		if err != nil {
			continue
		}
		sym, _ := res.GetResultMetadata()[gozxing.ResultMetadataType_SYMBOLOGY_IDENTIFIER].(string)
		return res.GetText(), sym, nil
	}
	return "", "", errors.New("zxdecode: no code found")
}
