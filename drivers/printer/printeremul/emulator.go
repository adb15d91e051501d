package printeremul

import (
	"context"
	"fmt"

	"github.com/packterm/pos/drivers/serialport/serialemul"
)

// Emulator is a Printer on a pseudo-terminal.
type Emulator struct {
	*Printer
	dev *serialemul.Device
}

// NewEmulator plugs an emulated printer in at link (a symbolic link it creates, which the
// driver opens as its serial port).
func NewEmulator(link string, cfg Config) (*Emulator, error) {
	e := &Emulator{Printer: New(cfg)}
	ready := make(chan struct{}) // e.dev is set before the handler uses it
	dev, err := serialemul.New(link, func(b []byte) {
		<-ready
		if reply := e.Printer.Write(b); len(reply) > 0 {
			_, _ = e.dev.Write(reply)
		}
	})
	if err != nil {
		return nil, fmt.Errorf("printeremul: %w", err)
	}
	e.dev = dev
	close(ready)
	return e, nil
}

// Path is the device path for the driver.
func (e *Emulator) Path() string { return e.dev.Path() }

// Unplug makes the printer vanish (USB cable pulled); Replug brings it back with its paper and
// modes as they were (a USB interface replugged, printer still powered).
func (e *Emulator) Unplug() { e.dev.Unplug() }

// Replug plugs the printer back in.
func (e *Emulator) Replug() error { return e.dev.Replug() }

// Close unplugs for good.
func (e *Emulator) Close() error { return e.dev.Close() }

// WaitReceipts blocks until at least n receipts are done (cut or torn off) or ctx ends.
func (e *Emulator) WaitReceipts(ctx context.Context, n int) ([]Receipt, error) {
	return e.Printer.WaitReceipts(ctx, n)
}

// WaitReceipts blocks until at least n receipts are done or ctx ends.
func (p *Printer) WaitReceipts(ctx context.Context, n int) ([]Receipt, error) {
	for {
		ch := p.Changed()
		if r := p.Receipts(); len(r) >= n {
			return r, nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return p.Receipts(), fmt.Errorf("printeremul: waiting for %d receipts: %w", n, ctx.Err())
		}
	}
}

// LoadPaper puts a new roll in; replies of commands that were waiting go to the host.
func (e *Emulator) LoadPaper() { e.send(e.Printer.LoadPaper()) }

// SetCoverOpen opens or closes the cover.
func (e *Emulator) SetCoverOpen(open bool) { e.send(e.Printer.SetCoverOpen(open)) }

// SetOffline puts the printer offline or back online.
func (e *Emulator) SetOffline(off bool) { e.send(e.Printer.SetOffline(off)) }

func (e *Emulator) send(b []byte) {
	if len(b) > 0 {
		_, _ = e.dev.Write(b)
	}
}
