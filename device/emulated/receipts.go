package emulated

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/packterm/pos/drivers/printer/printeremul"
)

// watchReceipts reports each receipt the emulated printer cuts, and writes it to
// ReceiptsDir.
func (r *Rig) watchReceipts(ctx context.Context) error {
	first := 1
	if d := r.opts.ReceiptsDir; d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return fmt.Errorf("emulated: receipts: %w", err)
		}
		ents, _ := os.ReadDir(d)
		for _, e := range ents {
			if strings.HasSuffix(e.Name(), ".txt") {
				first++
			}
		}
	}
	seen := 0
	for {
		ch := r.Printer.Changed()
		rs := r.Printer.Receipts()
		for ; seen < len(rs); seen++ {
			n := first + seen
			if err := r.writeReceipt(n, rs[seen]); err != nil {
				return err
			}
			if r.opts.OnReceipt != nil {
				r.opts.OnReceipt(n, rs[seen])
			}
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return nil
		}
	}
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
