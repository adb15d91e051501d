package scanner

import (
	"bytes"
	"errors"
	"fmt"
	"image"

	"github.com/packterm/pos/internal/regularfile"
)

// Bounds on a photo: a phone's 12-megapixel JPEG is a few MB; a file past these is refused
// before its pixels are decoded (a small file can declare a huge image, whose decoding
// would take the terminal's memory).
const (
	// MaxPhotoBytes is the largest photo file read.
	MaxPhotoBytes = 32 << 20
	// MaxPhotoPixels is the largest photo decoded (width × height): 48 megapixels.
	MaxPhotoPixels = 48 << 20
)

// ErrPhoto is wrapped by every refusal of a photo's bytes (not an image, too large).
var ErrPhoto = errors.New("not a usable photo")

// LoadFrame reads a PNG, JPEG or GIF file as a reported frame (ReadPhoto on a private copy
// of the file, read whole first: a regular file of at most MaxPhotoBytes).
func LoadFrame(path string) (ImageFrame, error) {
	data, err := regularfile.ReadFile(path, MaxPhotoBytes)
	if err != nil {
		return ImageFrame{}, fmt.Errorf("scanner: image: %w", err)
	}
	return ReadPhoto(data, path)
}

// ReadPhoto decodes a PNG, JPEG or GIF held in data as a reported frame named name. The
// header is read first: an image of more than MaxPhotoPixels, or of no pixel at all, is
// refused before its pixels are decoded.
func ReadPhoto(data []byte, name string) (ImageFrame, error) {
	if len(data) > MaxPhotoBytes {
		return ImageFrame{}, fmt.Errorf("scanner: image %s: %d bytes, at most %d: %w", name, len(data), MaxPhotoBytes, ErrPhoto)
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return ImageFrame{}, fmt.Errorf("scanner: image %s: %w: %w", name, ErrPhoto, err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || int64(cfg.Width)*int64(cfg.Height) > MaxPhotoPixels {
		return ImageFrame{}, fmt.Errorf("scanner: image %s: %d×%d pixels, at most %d in all: %w", name, cfg.Width, cfg.Height, MaxPhotoPixels, ErrPhoto)
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return ImageFrame{}, fmt.Errorf("scanner: image %s: %w: %w", name, ErrPhoto, err)
	}
	return ImageFrame{Image: img, Name: name, Report: true}, nil
}
