package emulated

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/packterm/pos/drivers/printer/printeremul"
)

// receiptLog reports each receipt the emulated printer cuts once, in order: OnReceipt,
// and a file in ReceiptsDir.
type receiptLog struct {
	mu    sync.Mutex
	first int // number of the first receipt of this run
	seen  int // receipts reported so far
}

// startReceipts makes ReceiptsDir and numbers this run's receipts on from the ones there.
func (r *Rig) startReceipts() error {
	r.receipts.first = 1
	d := r.opts.ReceiptsDir
	if d == "" {
		return nil
	}
	if err := os.MkdirAll(d, 0o755); err != nil {
		return fmt.Errorf("emulated: receipts: %w", err)
	}
	ents, err := os.ReadDir(d)
	if err != nil {
		return fmt.Errorf("emulated: receipts: %w", err)
	}
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".txt") {
			r.receipts.first++
		}
	}
	return nil
}

// watchReceipts reports the receipts the emulated printer cuts: as they are cut, or, on a
// virtual clock (Step), once each input has settled (Apply), so that a scripted run prints
// its screens and receipts in the same order every time. When the rig stops, the receipts
// cut since are reported before it returns: a script's last receipts are never lost.
func (r *Rig) watchReceipts(ctx context.Context) error {
	for {
		ch := r.Printer.Changed()
		if r.fake == nil {
			if err := r.reportReceipts(); err != nil {
				return err
			}
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return r.reportReceipts()
		}
	}
}

// reportReceipts reports the receipts cut since the last call.
func (r *Rig) reportReceipts() error {
	l := &r.receipts
	l.mu.Lock()
	defer l.mu.Unlock()
	rs := r.Printer.Receipts()
	for ; l.seen < len(rs); l.seen++ {
		n := l.first + l.seen
		if err := r.writeReceipt(n, rs[l.seen]); err != nil {
			return err
		}
		if r.opts.OnReceipt != nil {
			r.opts.OnReceipt(n, rs[l.seen])
		}
	}
	return nil
}

func (r *Rig) writeReceipt(n int, rc printeremul.Receipt) error {
	d := r.opts.ReceiptsDir
	if d == "" {
		return nil
	}
	base := filepath.Join(d, fmt.Sprintf("%04d", n))
	if err := os.WriteFile(base+".txt", []byte(rc.Text()), 0o644); err != nil {
		return fmt.Errorf("emulated: receipt: %w", err)
	}
	f, err := os.Create(base + ".png")
	if err != nil {
		return fmt.Errorf("emulated: receipt: %w", err)
	}
	if err := rc.WritePNG(f); err != nil {
		f.Close()
		return fmt.Errorf("emulated: receipt %s.png: %w", base, err)
	}
	return f.Close()
}
