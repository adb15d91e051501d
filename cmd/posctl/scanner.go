package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/packterm/pos/device/codemap"
	"github.com/packterm/pos/drivers/scanner"
	"github.com/packterm/pos/drivers/scanner/scanneremul"
	"github.com/packterm/pos/validate/codes"
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
		Short: "Print every code the scanner reads, with its symbology and which of our codes it is (no de-duplication); Ctrl-C to stop",
		Long: `Runs the scanner driver's own loop (framing, AIM identifiers, reconnection) and prints each
line it delivers with its symbology and its kind: pack, ticket, validation, or none of ours
(with the reason). Lines the driver discards (too long, binary, bad AIM identifier) are logged
on stderr. A validation code is shown by its ticket, its secret part masked.`,
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
			ctx, stop := signal.NotifyContext(c.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			log := slog.New(slog.NewTextHandler(c.ErrOrStderr(), nil))
			sc := scanner.NewSerial(port, scanner.Config{Suffix: sfx, AIM: aim, DedupWindow: -1, Logger: log})
			events := make(chan scanner.Event)
			ctx, cancel := context.WithCancel(ctx)
			defer cancel()
			done := make(chan error, 1)
			go func() { done <- sc.Run(ctx, events) }()
			w := c.OutOrStdout()
			for seen := 0; count <= 0 || seen < count; {
				select {
				case err := <-done:
					if errors.Is(err, context.Canceled) || errors.Is(err, io.EOF) { // io.EOF: end of a recording
						return nil
					}
					return err
				case ev := <-events:
					switch ev.Kind {
					case scanner.EventConnected:
						fmt.Fprintf(w, "scanner connected at %s\n", port.Path())
					case scanner.EventDisconnected:
						fmt.Fprintf(w, "scanner disconnected: %v\n", ev.Err)
					case scanner.EventScan:
						fmt.Fprintln(w, describeScan(ev.Scan))
						seen++
					}
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

// describeScan says what a scan is: its text (a validation code masked), symbology, kind.
func describeScan(s scanner.Scan) string {
	sym := s.Symbology
	if sym == "" {
		sym = "-"
	}
	kind, code, err := codemap.Parse(s.Text, s.Symbology)
	text := fmt.Sprintf("%q", s.Text)
	if err != nil {
		if kind == codes.KindValidation {
			text = fmt.Sprintf("%q", codes.Redact(s.Text))
		}
		return fmt.Sprintf("text=%s symbology=%s kind=none of ours (%v)", text, sym, err)
	}
	if v, ok := code.(codes.ValidationCode); ok {
		return fmt.Sprintf("text=%q symbology=%s kind=validation ticket %v", codes.Redact(s.Text), sym, v.ID())
	}
	return fmt.Sprintf("text=%s symbology=%s kind=%s", text, sym, kind)
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
