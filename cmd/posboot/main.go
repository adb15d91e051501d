package main

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/packterm/pos/device/board"
	"github.com/packterm/pos/firmware/slot"
	"github.com/packterm/pos/internal/version"
)

// posboot's exit statuses. posd's own are 0, 1, 2 and 75 (daemon.ExitRestart); these two
// never overlap them, so the unit can stop restarting on them alone
// (RestartPreventExitStatus=3 4): restarting cannot mend either.
const (
	// ExitNoBootable: no slot holds a firmware whose files match its signed header.
	ExitNoBootable = 3
	// ExitUnusable: posboot's own inputs are unusable (the configuration, the firmware
	// keys it names, a damaged firmware key statement).
	ExitUnusable = 4
)

// errUnusable marks the errors that exit with ExitUnusable.
var errUnusable = errors.New("posboot: cannot start")

// execFunc replaces the process (syscall.Exec); only returns on failure.
type execFunc func(path string, argv, env []string) error

// env is what posboot needs from outside: the exec, the logger, how it shows a message on
// the terminal's display, and who may own the firmware key files it trusts.
type env struct {
	exec execFunc
	log  *slog.Logger
	// show puts lines on the display of the board cfg describes (best effort).
	show func(cfg *bootConfig, lines ...string) error
	// anchorOwner is the uid besides root that may own the firmware key files and the
	// directories above them (-1: root only). posboot and posd run as one user: a file
	// that user could write would be a key posd could choose.
	anchorOwner int
}

func newRoot(e env) *cobra.Command {
	var root, configPath string
	var maxBoots int
	var trust []string
	cmd := &cobra.Command{
		Use:           "posboot --root DIR --config FILE [-- POSD-ARGS...]",
		Short:         "Pick the firmware slot to boot, count the start, exec its posd",
		Version:       version.Line("posboot"),
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			in, err := loadInputs(root, configPath, trust, args, e.anchorOwner)
			if err != nil {
				return err
			}
			opt := slot.Options{MaxBoots: maxBoots, Logger: e.log, Trust: in.trust}
			s, err := slot.Open(root, opt)
			if err != nil {
				return err
			}
			c, err := s.Boot()
			if errors.Is(err, slot.ErrNoBootable) {
				noBootable(e, in.cfg, err)
				return err
			}
			if err != nil {
				return err
			}
			e.log.Info("posboot: starting", "slot", c.Slot, "version", c.Version.String(), "trial", c.Trial, "boots", c.Boots, "rolled_back", c.Rolled)
			environ := append(os.Environ(), c.Env(root)...)
			err = e.exec(c.Posd, append([]string{c.Posd}, in.posdArgs...), environ)
			return fmt.Errorf("posboot: exec %s: %w", c.Posd, err)
		},
	}
	cmd.SetVersionTemplate("{{.Version}}\n") // version.Line: one form for posd, posctl, posboot
	f := cmd.Flags()
	f.StringVar(&root, "root", "/var/lib/pos/slots", "slot root directory")
	f.IntVar(&maxBoots, "max-boots", slot.DefaultMaxBoots, "trial starts before the previous slot comes back")
	f.StringVar(&configPath, "config", "", "posd's configuration: its [keys] firmware are the keys each slot's signature is checked against, and posd gets --config FILE")
	f.StringSliceVar(&trust, "trust", nil, "firmware public keys to check each slot's signature against, for a posd run without --config (not with --config)")
	return cmd
}

// noBootable says, everywhere it can with posd not running, that the terminal has no
// firmware to start: the journal (stderr), and the display when the configuration names
// the board.
func noBootable(e env, cfg *bootConfig, err error) {
	e.log.Error("posboot: no bootable firmware slot: the terminal stays stopped until a technician installs a firmware",
		"err", err, "exit", ExitNoBootable)
	if cfg == nil || e.show == nil {
		return
	}
	if serr := e.show(cfg, noBootableScreen(cfg.Rows)...); serr != nil {
		e.log.Warn("posboot: cannot show the failure on the display", "err", serr)
	}
}

// noBootableScreen is what a panel of rows lines shows when no slot can boot
// (retailer-facing, in French; every line fits 16 columns).
func noBootableScreen(rows int) []string {
	if rows < 3 {
		return []string{"AUCUN LOGICIEL", "APPEL TECHNICIEN"}
	}
	return []string{"AUCUN LOGICIEL", "", "APPELEZ UN", "TECHNICIEN"}
}

// exitCode is the status posboot exits with for err.
func exitCode(err error) int {
	switch {
	case errors.Is(err, slot.ErrNoBootable):
		return ExitNoBootable
	case errors.Is(err, errUnusable):
		return ExitUnusable
	}
	return 1
}

func main() {
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	os.Exit(run(env{exec: syscall.Exec, log: log, show: showOn(board.Open), anchorOwner: -1}, os.Args[1:]))
}

// run is posboot with args; it returns only when it could not exec posd, with the status
// to exit with.
func run(e env, args []string) int {
	cmd := newRoot(e)
	cmd.SetArgs(args)
	if err := cmd.Execute(); err != nil {
		fmt.Fprintln(os.Stderr, "posboot:", err)
		return exitCode(err)
	}
	return 0
}
