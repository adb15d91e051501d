package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/packterm/pos/device/diag"
	"github.com/packterm/pos/device/locale"
)

func init() {
	ioCmd := &cobra.Command{Use: "io", Short: "LEDs, buzzer, cash drawer, buttons and tamper switch tools"}
	var bf boardFlags
	var o diag.IOOpts
	var lang string
	testCmd := &cobra.Command{
		Use:   "test",
		Short: "Walk through LEDs, buzzer, drawer, OK/CANCEL buttons and tamper switch",
		Long: `Lights each LED, plays each beep pattern, opens the cash drawer, then asks the technician to
press OK, press CANCEL and open then close the case, checking each within --wait.
With --emulate the presses are simulated and the recorded output pins are printed.
Exits with an error when a step failed.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) (err error) {
			if bf.emulate && !cmd.Flags().Changed("hold") {
				o.Hold = 100 * time.Millisecond
			}
			if o.Locale, err = locale.Get(lang); err != nil {
				return err
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
			fmt.Fprintf(out, "io test on %s\n", b.Profile.Name)
			o.Prompt = func(s diag.Step) {
				fmt.Fprintf(out, ">> %s (within %v)\n", s.Check, o.Wait)
			}
			if b.Emulator != nil {
				o.Press = emulatedPress(b)
			}
			o.Report = func(r diag.Result) {
				status := "ok  "
				if !r.OK {
					status = "FAIL"
				}
				detail := r.Detail
				if detail == "" {
					detail = r.Check
				}
				fmt.Fprintf(out, "%s %-18s %s\n", status, r.Name, detail)
				emulatedPins(out, r.Name, b)
			}
			results, err := diag.RunIO(ctx, b, o)
			if err != nil {
				return err
			}
			emulatedScreen(out, b, false)
			var failed []string
			for _, r := range results {
				if !r.OK {
					failed = append(failed, r.Name)
				}
			}
			if len(failed) > 0 {
				return fmt.Errorf("io test: %d step(s) failed: %s", len(failed), strings.Join(failed, ", "))
			}
			fmt.Fprintln(out, "io test done")
			return nil
		},
	}
	bf.register(testCmd.Flags())
	f := testCmd.Flags()
	f.DurationVar(&o.Hold, "hold", time.Second, "how long each LED stays lit (100ms with --emulate unless set)")
	f.DurationVar(&o.Wait, "wait", 20*time.Second, "how long to wait for each press and for the case to open")
	f.BoolVar(&o.SkipDrawer, "no-drawer", false, "do not open the cash drawer")
	f.StringVar(&lang, "language", locale.Default, "language of the prompts on the display: "+strings.Join(locale.Tags(), ", "))
	ioCmd.AddCommand(testCmd)
	root.AddCommand(ioCmd)
}
