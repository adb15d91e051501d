package main

import (
	"fmt"
	"os"
	"time"

	"github.com/jonboulle/clockwork"
	"github.com/spf13/cobra"

	"github.com/packterm/pos/firmware/bundle"
	"github.com/packterm/pos/firmware/flash"
)

// linkFlags are the flags of the commands that talk to a terminal's maintenance link.
type linkFlags struct {
	to, tokenFile string
	baud          int
	timeout       time.Duration
}

func (lf *linkFlags) register(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&lf.to, "to", "", "terminal's maintenance link: serial:/dev/ttyUSB0 or tcp:HOST:PORT")
	f.IntVar(&lf.baud, "baud", 115200, "serial line rate (8N1)")
	f.StringVar(&lf.tokenFile, "token-file", "", "file holding the technician token (else $POS_TECH_TOKEN)")
	f.DurationVar(&lf.timeout, "timeout", 10*time.Second, "wait for each answer of the terminal")
}

// client builds the flash client of the flags.
func (lf *linkFlags) client(cmd *cobra.Command) (*flash.Client, error) {
	if lf.to == "" {
		return nil, fmt.Errorf("--to is required")
	}
	l, err := parseLink(lf.to, lf.baud)
	if err != nil {
		return nil, err
	}
	tok, err := readToken(lf.tokenFile)
	if err != nil {
		return nil, err
	}
	return &flash.Client{Dial: l.dialer(nil), Token: tok, Timeout: lf.timeout}, nil
}

// sendFile sends one file over the link with a progress report and prints the answer.
func sendFile(cmd *cobra.Command, c *flash.Client, kind flash.Kind, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	p := newByteProgress(cmd.ErrOrStderr(), kind.String(), clockwork.NewRealClock())
	c.Progress = p.Update
	ctx, stop := interruptible(cmd.Context())
	defer stop()
	res, err := c.Send(ctx, kind, f, st.Size())
	p.Finish()
	if err != nil {
		return fmt.Errorf("%v: %w", kind, err)
	}
	extra := ""
	if len(res.Resumed) > 0 {
		extra = fmt.Sprintf(" (link reopened %d times, resumed at %v)", res.Attempts-1, res.Resumed)
	}
	fmt.Fprintf(cmd.OutOrStdout(), "ok: %s%s\n", res.Message, extra)
	return nil
}

func init() {
	var lf linkFlags
	cmd := &cobra.Command{
		Use:   "flash BUNDLE --to serial:/dev/ttyUSB0|tcp:HOST:PORT",
		Short: "Flash a signed firmware bundle onto a terminal over its maintenance link (resumes after a pulled cable)",
		Long: "Send a firmware bundle to a terminal's maintenance link. The terminal checks the technician\n" +
			"token, then the bundle's signature, target and version as soon as its header has arrived, and\n" +
			"installs it into its inactive slot; it boots it on trial at the next start. A pulled cable\n" +
			"or a lost connection is retried, and the transfer resumes where the terminal stopped.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			f, err := os.Open(args[0])
			if err != nil {
				return err
			}
			h, err := bundle.ReadHeader(f)
			f.Close()
			if err != nil {
				return err
			}
			c, err := lf.client(cmd)
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "flashing firmware %v for %v (%d bytes) to %s\n", h.Manifest.Version, h.Manifest.Target, h.BundleSize(), lf.to)
			return sendFile(cmd, c, flash.Firmware, args[0])
		},
	}
	lf.register(cmd)
	root.AddCommand(cmd)
	flashCmd = cmd
}

// flashCmd is `posctl flash`; flash_serve.go adds `flash serve` under it.
var flashCmd *cobra.Command
