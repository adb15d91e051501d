package printer

import (
	"context"
	"fmt"
	"time"

	"github.com/packterm/pos/drivers/printer/escpos"
)

// Mode is how the driver learns that a receipt has printed.
type Mode int

// Print confirmation modes.
const (
	// ModeUnknown: not probed yet (the first receipt or Detect probes).
	ModeUnknown Mode = iota
	// ModeProcessID: each receipt is followed by GS ( H fn 48, which the printer answers once
	// everything before it has printed (TM-T88V and later).
	ModeProcessID
	// ModeStatusPolling: the printer ignores GS ( H (TM-T88IV and before, most clones); the
	// driver polls DLE EOT every StatusPoll for PollSettle after sending a receipt, and any
	// fault seen then interrupts it.
	ModeStatusPolling
)

func (m Mode) String() string {
	switch m {
	case ModeProcessID:
		return "process-id (GS ( H)"
	case ModeStatusPolling:
		return "status-polling (DLE EOT)"
	}
	return "unknown (not probed)"
}

// Mode is the confirmation mode in use (ModeUnknown before the first probe).
func (p *Printer) Mode() Mode {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.mode
}

// Detect probes the printer for GS ( H if the mode is not known yet and returns the mode. The
// printer must be ready: a printer with a fault queues GS ( H, so the probe is not made then
// (ModeUnknown, and the fault as a *FaultError).
func (p *Printer) Detect(ctx context.Context) (Mode, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.mode != ModeUnknown {
		return p.mode, nil
	}
	st, err := p.status(ctx)
	if err != nil {
		return p.mode, p.fault(ErrNoResponse, st, err, false)
	}
	if k := kindOf(st); k != nil {
		return p.mode, p.fault(k, st, nil, false)
	}
	err = p.probe(ctx)
	return p.mode, err
}

// probe sends one GS ( H and waits ProbeTimeout for its answer (p.mu held, printer ready).
// No answer means the printer does not know the command: a printer that lacks it skips its
// parameter bytes (the length is in the command), so nothing is printed.
func (p *Printer) probe(ctx context.Context) error {
	p.seq = p.seq%9999 + 1
	id := []byte(fmt.Sprintf("%04d", p.seq))
	var w escpos.Builder
	b, _ := w.ProcessID([4]byte(id)).Bytes()
	p.port.Discard()
	if _, err := p.port.Write(b); err != nil {
		p.linkFailed()
		return fmt.Errorf("printer: GS ( H probe: %w", err)
	}
	xmit := time.Duration(len(b)) * 10 * time.Second / time.Duration(p.cfg.Baud)
	pctx, cancel := p.timeout(ctx, p.cfg.ProbeTimeout+xmit)
	err := p.waitID(pctx, id)
	cancel()
	switch {
	case err == nil:
		p.mode = ModeProcessID
	case ctx.Err() != nil:
		return fmt.Errorf("printer: GS ( H probe: %w", ctx.Err())
	default:
		p.mode = ModeStatusPolling
	}
	p.probed = true
	p.cfg.Logger.Info("printer: print confirmation mode", "mode", p.mode.String(), "probed", true, "profile", p.cfg.Profile.Name)
	return nil
}

// linkFailed forgets a probed mode when a write fails: the printer plugged back in may be
// another model (p.mu held).
func (p *Printer) linkFailed() {
	if p.probed {
		p.mode, p.probed = ModeUnknown, false
	}
}

// poll reads the status every StatusPoll until PollSettle has passed since the receipt left
// the line (xmit); a fault seen meanwhile interrupts the receipt (ModeStatusPolling).
func (p *Printer) poll(ctx context.Context, xmit time.Duration) error {
	for waited := -xmit; waited < p.cfg.PollSettle; waited += p.cfg.StatusPoll {
		t := p.cfg.Clock.NewTimer(p.cfg.StatusPoll)
		select {
		case <-t.Chan():
		case <-ctx.Done():
			t.Stop()
			return p.fault(ErrNoResponse, p.last, ctx.Err(), true)
		}
		st, err := p.status(ctx)
		if err != nil {
			return p.fault(ErrNoResponse, st, err, true)
		}
		if k := kindOf(st); k != nil {
			return p.interrupt(k, st)
		}
	}
	return nil
}
