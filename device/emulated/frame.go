package emulated

import (
	"context"
	"fmt"

	"github.com/packterm/pos/device/terminal"
	"github.com/packterm/pos/drivers/scanner"
)

// PhotoFrame decodes an image already in memory (a browser's upload) as the camera would
// and hands its code to the terminal, then waits for the terminal to settle. It returns
// the decoded text.
func (r *Rig) PhotoFrame(ctx context.Context, fr scanner.ImageFrame) (string, error) {
	fr.Report = true
	ev, ok := r.Images.Decode(fr)
	if !ok {
		return "", fmt.Errorf("emulated: %s: no code", fr.Name)
	}
	if ev.Kind == scanner.EventError {
		return "", ev.Err
	}
	ctx, cancel := context.WithTimeout(ctx, SettleTimeout)
	defer cancel()
	n := r.Terminal.Received()
	if err := r.Terminal.Send(ctx, terminal.Event{Kind: terminal.EvScan, Text: ev.Scan.Text, Symbology: ev.Scan.Symbology, Source: ev.Scan.Source}); err != nil {
		return "", err
	}
	_, err := r.Terminal.Settle(ctx, n)
	return ev.Scan.Text, err
}
