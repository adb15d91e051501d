package main

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"
	"periph.io/x/conn/v3/display/displaytest"

	"github.com/packterm/pos/device/diag"
	lcd "github.com/packterm/pos/drivers/display"
	"github.com/packterm/pos/drivers/display/hd44780emul"
)

// printState prints what the screen text does not show: cursor, display and backlight.
func printState(w io.Writer, s hd44780emul.State) {
	cursor := "none"
	switch {
	case s.Cursor && s.Blink:
		cursor = "underline and blinking block"
	case s.Cursor:
		cursor = "underline"
	case s.Blink:
		cursor = "blinking block"
	}
	if cursor != "none" {
		cursor += fmt.Sprintf(" at row %d col %d", s.CursorRow, s.CursorCol)
	}
	onOff := map[bool]string{true: "on", false: "off"}
	fmt.Fprintf(w, "  display %s, backlight %s, cursor %s\n", onOff[s.DisplayOn], onOff[s.Backlight], cursor)
}

func init() {
	displayCmd := &cobra.Command{Use: "display", Short: "Character display (HD44780) tools"}
	var bf boardFlags
	var pause time.Duration
	var conformance bool
	testCmd := &cobra.Command{
		Use:   "test",
		Short: "Show the display test patterns (addressing, ROM, € and accents, cursor, on/off, backlight)",
		Long: `Shows the display test patterns one after the other, for a technician to check by eye.
On the emulated board (--emulate) it prints what the emulated panel shows after each step and
fails on any protocol error the emulator saw. --conformance also runs periph's TextDisplay
conformance test (interactive on a real panel: each of its steps stays 3 s).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !cmd.Flags().Changed("pause") && bf.emulate {
				pause = 0
			}
			// Ctrl-C must not leave the buzzer sounding or the drawer solenoid energised.
			ctx, stop := interruptible(cmd.Context())
			defer stop()
			b, err := bf.open()
			if err != nil {
				return err
			}
			defer b.Close()
			out := cmd.OutOrStdout()
			fmt.Fprintf(out, "display test: %s on %s\n", b.Display, b.Profile.Name)
			err = diag.RunDisplay(ctx, b.Display, func(s diag.Step) error {
				fmt.Fprintf(out, "== %s: %s\n", s.Name, s.Check)
				emulatedScreen(out, b, true)
				time.Sleep(pause)
				return nil
			})
			if err != nil {
				return err
			}
			var errs []error
			if conformance {
				fmt.Fprintln(out, "== periph TextDisplay conformance test")
				for _, err := range displaytest.TestTextDisplay(b.Display, b.Emulator == nil) {
					errs = append(errs, fmt.Errorf("conformance: %w", err))
				}
			}
			errs = append(errs, emulatedErrors(b)...)
			errs = append(errs, readBack(out, b.Display))
			if err := errors.Join(errs...); err != nil {
				return err
			}
			fmt.Fprintln(out, "display test done")
			return nil
		},
	}
	bf.register(testCmd.Flags())
	testCmd.Flags().DurationVar(&pause, "pause", 3*time.Second, "how long each pattern stays on screen (0 with --emulate unless set)")
	testCmd.Flags().BoolVar(&conformance, "conformance", false, "also run periph's TextDisplay conformance test")
	displayCmd.AddCommand(testCmd)
	root.AddCommand(displayCmd)
}

// readBack reads the panel back when its R/W line is wired, as the terminal does at rest,
// and says what it found: a panel whose lines are wired wrong, or at the wrong level, fails
// here before the terminal takes it for dead.
func readBack(out io.Writer, d *lcd.Dev) error {
	if !d.CanCheck() {
		fmt.Fprintln(out, "== read back: not checked (R/W tied to ground; --lcd-rw names its GPIO)")
		return nil
	}
	if err := d.Check(); err != nil {
		fmt.Fprintf(out, "== read back: the panel does not answer: %v\n", err)
		return fmt.Errorf("display test: %w", err)
	}
	fmt.Fprintln(out, "== read back: ok (busy flag and every visible cell as written)")
	return nil
}
