package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/packterm/pos/device/diag"
	"github.com/packterm/pos/device/locale"
	"github.com/packterm/pos/drivers/printer"
	"github.com/packterm/pos/drivers/printer/printeremul"
	"github.com/packterm/pos/drivers/serialport"
)

func init() {
	cmd := &cobra.Command{Use: "printer", Short: "Receipt printer: test page, status, render captured ESC/POS, emulate"}
	cmd.AddCommand(printerTestCmd(), printerStatusCmd(), printerRenderCmd(), printerEmulateCmd())
	root.AddCommand(cmd)
}

type printerPortFlags struct {
	path    string
	baud    int
	profile string
}

func (f *printerPortFlags) add(c *cobra.Command) {
	c.Flags().StringVar(&f.path, "port", "", "serial device of the printer (e.g. /dev/ttyUSB0)")
	c.Flags().IntVar(&f.baud, "baud", 9600, "baud rate (8N1)")
	c.Flags().StringVar(&f.profile, "profile", "", "printer profile: "+profileNames()+" (default: default)")
	_ = c.MarkFlagRequired("port")
}

func profileNames() string {
	var names []string
	for _, p := range printer.Profiles() {
		names = append(names, p.Name)
	}
	return strings.Join(names, ", ")
}

// openPrinter opens the port, waits for the device (up to 3 s) and starts a driver with
// a temporary spool; closing releases the port and removes the spool.
func openPrinter(ctx context.Context, f printerPortFlags, cols int) (p *printer.Printer, closing func(), err error) {
	prof, err := printer.ProfileByName(f.profile)
	if err != nil {
		return nil, nil, err
	}
	spool, err := os.MkdirTemp("", "posctl-printer-")
	if err != nil {
		return nil, nil, err
	}
	port, err := serialport.Open(serialport.Config{Path: f.path, Baud: f.baud})
	if err != nil {
		os.RemoveAll(spool)
		return nil, nil, err
	}
	closing = func() { port.Close(); os.RemoveAll(spool) }
	wctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	if err := port.WaitConnected(wctx); err != nil {
		closing()
		return nil, nil, &exitError{code: 2, err: fmt.Errorf("printer: %s not present: %w", f.path, err)}
	}
	if p, err = printer.New(port, printer.Config{Profile: prof, Layout: printer.Layout{Columns: cols}, SpoolDir: spool, Baud: f.baud}); err != nil {
		closing()
		return nil, nil, err
	}
	return p, closing, nil
}

func printerTestCmd() *cobra.Command {
	var pf printerPortFlags
	var cols int
	var drawer bool
	var lang string
	c := &cobra.Command{
		Use:   "test",
		Short: "Print the technician test page (styles, accents, €, barcodes, QR) and report the status",
		RunE: func(c *cobra.Command, _ []string) error {
			words, err := locale.Get(lang)
			if err != nil {
				return err
			}
			p, closing, err := openPrinter(c.Context(), pf, cols)
			if err != nil {
				return err
			}
			defer closing()
			st, err := p.Status(c.Context())
			if err != nil {
				return &exitError{code: 2, err: err}
			}
			fmt.Fprintf(c.OutOrStdout(), "status before: %s\n", st)
			if err := p.Print(c.Context(), printer.TestPage(p.Layout(), drawer, diag.TestPageWords(words))); err != nil {
				return &exitError{code: 2, err: err}
			}
			fmt.Fprintf(c.OutOrStdout(), "test page printed (%d columns, confirmation %s); status after: %s\n", p.Layout().Columns, p.Mode(), p.LastStatus())
			return nil
		},
	}
	pf.add(c)
	c.Flags().IntVar(&cols, "columns", 0, "characters per line: 32, 42 or 48 (default: the profile's)")
	c.Flags().BoolVar(&drawer, "drawer", false, "also kick the cash drawer")
	c.Flags().StringVar(&lang, "language", locale.Default, "language of the page: "+strings.Join(locale.Tags(), ", "))
	return c
}

func printerStatusCmd() *cobra.Command {
	var pf printerPortFlags
	c := &cobra.Command{
		Use:   "status",
		Short: "Read the printer's real-time status (DLE EOT) and how printing is confirmed (GS ( H or status polling)",
		RunE: func(c *cobra.Command, _ []string) error {
			p, closing, err := openPrinter(c.Context(), pf, 0)
			if err != nil {
				return err
			}
			defer closing()
			st, err := p.Status(c.Context())
			if err != nil {
				return &exitError{code: 2, err: err}
			}
			fmt.Fprintln(c.OutOrStdout(), st)
			if !st.Ready() {
				fmt.Fprintf(c.OutOrStdout(), "confirmation: %s\n", p.Mode())
				return &exitError{code: 3, err: fmt.Errorf("printer not ready: %s", st)}
			}
			// Ready: probe GS ( H now if the profile does not say.
			m, err := p.Detect(c.Context())
			if err != nil {
				return &exitError{code: 2, err: err}
			}
			fmt.Fprintf(c.OutOrStdout(), "confirmation: %s\n", m)
			return nil
		},
	}
	pf.add(c)
	return c
}

// writeReceipts writes DIR/NNNN.txt and DIR/NNNN.png for receipts numbered from first.
func writeReceipts(dir string, first int, rs []printeremul.Receipt) error {
	for i, r := range rs {
		base := filepath.Join(dir, fmt.Sprintf("%04d", first+i))
		if err := os.WriteFile(base+".txt", []byte(r.Text()), 0o644); err != nil {
			return err
		}
		f, err := os.Create(base + ".png")
		if err != nil {
			return err
		}
		if err := r.WritePNG(f); err != nil {
			f.Close()
			return fmt.Errorf("%s.png: %w", base, err)
		}
		if err := f.Close(); err != nil {
			return err
		}
	}
	return nil
}

func printerRenderCmd() *cobra.Command {
	var out string
	var cols int
	c := &cobra.Command{
		Use:   "render CAPTURE.bin",
		Short: "Run a captured ESC/POS stream through the emulated printer: DIR/NNNN.txt and .png per receipt",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			data, err := os.ReadFile(args[0])
			if err != nil {
				return err
			}
			if err := os.MkdirAll(out, 0o755); err != nil {
				return err
			}
			p := printeremul.New(printeremul.Config{Columns: cols})
			p.Write(data)
			p.Close()
			rs := p.Receipts()
			if err := writeReceipts(out, 1, rs); err != nil {
				return err
			}
			w := c.OutOrStdout()
			fmt.Fprintf(w, "%d receipt(s) written to %s\n", len(rs), out)
			for _, u := range p.Unknown() {
				fmt.Fprintf(w, "unknown sequence: % X (%s)\n", u.Raw, u.Reason)
			}
			return nil
		},
	}
	c.Flags().StringVar(&out, "out", "", "output directory")
	c.Flags().IntVar(&cols, "columns", 48, "characters per line of the emulated printer: 32, 42 or 48")
	_ = c.MarkFlagRequired("out")
	return c
}

func printerEmulateCmd() *cobra.Command {
	var link, out string
	var cols int
	var noGSH bool
	c := &cobra.Command{
		Use:   "emulate",
		Short: "Run an emulated printer on a pseudo-terminal; each cut receipt goes to DIR/NNNN.txt and .png",
		RunE: func(c *cobra.Command, _ []string) error {
			if err := os.MkdirAll(out, 0o755); err != nil {
				return err
			}
			e, err := printeremul.NewEmulator(link, printeremul.Config{Columns: cols, NoProcessID: noGSH})
			if err != nil {
				return err
			}
			defer e.Close()
			model := "with GS ( H (TM-T88V)"
			if noGSH {
				model = "without GS ( H (TM-T88IV, clones)"
			}
			ctx, stop := interruptible(c.Context())
			defer stop()
			fmt.Fprintf(c.OutOrStdout(), "emulated printer %s at %s; receipts to %s; Ctrl-C to stop\n", model, e.Path(), out)
			done := 0
			for {
				rs, err := e.WaitReceipts(ctx, done+1)
				if err != nil {
					if errors.Is(err, context.Canceled) {
						return nil
					}
					return err
				}
				if err := writeReceipts(out, done+1, rs[done:]); err != nil {
					return err
				}
				for i := done; i < len(rs); i++ {
					fmt.Fprintf(c.OutOrStdout(), "receipt %04d: %d lines, cut %q\n", i+1, len(rs[i].Lines), rs[i].Cut)
				}
				done = len(rs)
			}
		},
	}
	c.Flags().StringVar(&link, "link", "", "path of the device link to create (e.g. /tmp/ttyPRN)")
	c.Flags().StringVar(&out, "out", "", "output directory")
	c.Flags().IntVar(&cols, "columns", 48, "characters per line: 32, 42 or 48")
	c.Flags().BoolVar(&noGSH, "no-gs-h", false, "emulate a printer without GS ( H (answers DLE EOT only: TM-T88IV and before, most clones)")
	_ = c.MarkFlagRequired("link")
	_ = c.MarkFlagRequired("out")
	return c
}
