package scanneremul

import (
	"context"
	"fmt"
	"image"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/packterm/pos/drivers/scanner"
	"github.com/packterm/pos/drivers/serialport/serialemul"
)

// Config of the emulated scanner.
type Config struct {
	Suffix scanner.Suffix
	AIM    bool
	// Baud paces the output (0: as fast as the pty takes it).
	Baud    int
	Clock   clockwork.Clock
	Decoder scanner.ImageDecoder // for ScanImage
}

// Emulator is the emulated scanner.
type Emulator struct {
	cfg Config
	dev *serialemul.Device
}

// New plugs an emulated scanner in at link.
func New(link string, cfg Config) (*Emulator, error) {
	if cfg.Clock == nil {
		cfg.Clock = clockwork.NewRealClock()
	}
	dev, err := serialemul.New(link, nil)
	if err != nil {
		return nil, fmt.Errorf("scanneremul: %w", err)
	}
	return &Emulator{cfg: cfg, dev: dev}, nil
}

// Path is the device path for the driver.
func (e *Emulator) Path() string { return e.dev.Path() }

// Frame is the bytes the scanner sends for text with symbology (an AIM id such as "]C0").
func (e *Emulator) Frame(text, symbology string) []byte {
	var b []byte
	if e.cfg.AIM {
		if symbology == "" {
			symbology = "]Z0" // AIM "other": the scanner always sends an identifier
		}
		b = append(b, symbology...)
	}
	b = append(b, text...)
	return append(b, e.cfg.Suffix.Bytes()...)
}

// ByteTime is the time one byte takes on the line at the configured baud (8N1).
func (e *Emulator) ByteTime() time.Duration {
	if e.cfg.Baud <= 0 {
		return 0
	}
	return 10 * time.Second / time.Duration(e.cfg.Baud)
}

// Scan sends one code.
func (e *Emulator) Scan(ctx context.Context, text, symbology string) error {
	return e.WriteRaw(ctx, e.Frame(text, symbology))
}

// ScanImage decodes img with the configured decoder and sends the code found.
func (e *Emulator) ScanImage(ctx context.Context, img image.Image) error {
	if e.cfg.Decoder == nil {
		return fmt.Errorf("scanneremul: no image decoder configured")
	}
	text, sym, err := e.cfg.Decoder.Decode(img)
	if err != nil {
		return fmt.Errorf("scanneremul: decode: %w", err)
	}
	return e.Scan(ctx, text, sym)
}

// WriteRaw sends bytes as they are, paced.
func (e *Emulator) WriteRaw(ctx context.Context, b []byte) error {
	bt := e.ByteTime()
	if bt == 0 {
		if _, err := e.dev.Write(b); err != nil {
			return fmt.Errorf("scanneremul: %w", err)
		}
		return nil
	}
	for i := range b {
		if _, err := e.dev.Write(b[i : i+1]); err != nil {
			return fmt.Errorf("scanneremul: %w", err)
		}
		select {
		case <-e.cfg.Clock.After(bt):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// Unplug makes the scanner vanish.
func (e *Emulator) Unplug() { e.dev.Unplug() }

// Replug brings it back at the same path.
func (e *Emulator) Replug() error { return e.dev.Replug() }

// Close unplugs for good.
func (e *Emulator) Close() error { return e.dev.Close() }
