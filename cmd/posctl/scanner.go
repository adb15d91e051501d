package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/spf13/cobra"

	"github.com/packterm/pos/drivers/scanner"
	"github.com/packterm/pos/drivers/scanner/scanneremul"
	"github.com/packterm/pos/drivers/serialport"
)

func init() {
	cmd := &cobra.Command{Use: "scanner", Short: "Barcode scanner: listen to the raw lines, emulate a scanner"}
	cmd.AddCommand(scannerListenCmd(), scannerEmulateCmd())
	root.AddCommand(cmd)
}

func scannerListenCmd() *cobra.Command {
	var path, suffix string
	var baud, count int
	var aim bool
	var in listenInput
	c := &cobra.Command{
		Use:   "listen",
		Short: "Print every line the scanner sends, raw and as parsed (no de-duplication); Ctrl-C to stop",
		RunE: func(c *cobra.Command, _ []string) error {
			sfx, err := scanner.ParseSuffix(suffix)
			if err != nil {
				return err
			}
			port, err := in.open(path, baud)
			if err != nil {
				return err
			}
			defer port.Close()
			ctx, stop := signal.NotifyContext(c.Context(), os.Interrupt)
			defer stop()
			w := c.OutOrStdout()
			fr := scanner.NewFramer(sfx, 512)
			seen := 0
			for count <= 0 || seen < count {
				pk, err := port.Next(ctx)
				if err != nil {
					if errors.Is(err, context.Canceled) || errors.Is(err, io.EOF) { // io.EOF: end of a recording
						return nil
					}
					return err
				}
				if pk.Data == nil {
					fr.Reset()
					if pk.State == serialport.Connected {
						fmt.Fprintf(w, "scanner connected at %s\n", port.Path())
					} else {
						fmt.Fprintf(w, "scanner disconnected: %v\n", pk.Err)
					}
					continue
				}
				for _, f := range fr.Feed(pk.Data) {
					raw := fmt.Sprintf("%q+%s", f.Line, sfx)
					if f.Err != nil {
						fmt.Fprintf(w, "raw %s  discarded: %v\n", raw, f.Err)
						continue
					}
					text, sym, err := scanner.ParseLine(f.Line, aim)
					if err != nil {
						fmt.Fprintf(w, "raw %s  discarded: %v\n", raw, err)
						continue
					}
					if sym == "" {
						sym = "-"
					}
					fmt.Fprintf(w, "raw %s  text=%q symbology=%s\n", raw, text, sym)
					seen++
				}
			}
			return nil
		},
	}
	c.Flags().StringVar(&path, "port", "", "serial device of the scanner (or --input)")
	c.Flags().IntVar(&baud, "baud", 9600, "baud rate (8N1)")
	c.Flags().StringVar(&suffix, "suffix", "CR", "line suffix the scanner sends: CR (Enter), LF, CRLF or TAB")
	c.Flags().BoolVar(&aim, "aim", false, "lines start with an AIM symbology identifier")
	c.Flags().IntVar(&count, "count", 0, "stop after this many good lines (0: until Ctrl-C)")
	in.add(c)
	return c
}

func scannerEmulateCmd() *cobra.Command {
	var link, suffix string
	var baud int
	var aim bool
	c := &cobra.Command{
		Use:   "emulate",
		Short: "Run an emulated scanner on a pseudo-terminal: each line of standard input is scanned (\"]C0TEXT\" sets the AIM id)",
		RunE: func(c *cobra.Command, _ []string) error {
			sfx, err := scanner.ParseSuffix(suffix)
			if err != nil {
				return err
			}
			e, err := scanneremul.New(link, scanneremul.Config{Suffix: sfx, AIM: aim, Baud: baud})
			if err != nil {
				return err
			}
			defer e.Close()
			ctx, stop := interruptible(c.Context())
			defer stop()
			fmt.Fprintf(c.ErrOrStderr(), "emulated scanner at %s; type codes, one per line\n", e.Path())
			lines, readErr := readLines(ctx, c.InOrStdin())
			for {
				var text string
				select {
				case <-ctx.Done():
					return nil
				case l, ok := <-lines:
					if !ok {
						return <-readErr
					}
					text = l
				}
				sym := ""
				if t, s, err := scanner.ParseLine([]byte(text), true); err == nil {
					text, sym = t, s
				}
				if err := e.Scan(ctx, text, sym); err != nil {
					if ctx.Err() != nil {
						return nil
					}
					return err
				}
			}
		},
	}
	c.Flags().StringVar(&link, "link", "", "path of the device link to create (e.g. /tmp/ttySCN)")
	c.Flags().StringVar(&suffix, "suffix", "CR", "suffix: CR, LF or CRLF")
	c.Flags().IntVar(&baud, "baud", 9600, "pace output at this baud rate (0: no pacing)")
	c.Flags().BoolVar(&aim, "aim", false, "send AIM identifiers")
	_ = c.MarkFlagRequired("link")
	return c
}

// readLines delivers r's lines on a channel, closed at the end of r, and then r's error,
// until ctx is done: the emulator's loop can stop on a signal while a read of the
// terminal blocks.
func readLines(ctx context.Context, r io.Reader) (<-chan string, <-chan error) {
	lines, errc := make(chan string), make(chan error, 1)
	go func() {
		in := bufio.NewScanner(r)
		for in.Scan() {
			select {
			case lines <- in.Text():
			case <-ctx.Done():
				return
			}
		}
		close(lines)
		errc <- in.Err()
	}()
	return lines, errc
}
