package main

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/packterm/pos/firmware/fwkey"
	"github.com/packterm/pos/firmware/slot"
	"github.com/packterm/pos/internal/version"
)

// execFunc replaces the process (syscall.Exec); only returns on failure.
type execFunc func(path string, argv, env []string) error

func newRoot(exec execFunc, log *slog.Logger) *cobra.Command {
	var root string
	var maxBoots int
	var trust []string
	cmd := &cobra.Command{
		Use:           "posboot --root DIR [-- POSD-ARGS...]",
		Short:         "Pick the firmware slot to boot, count the start, exec its posd",
		Version:       version.Line("posboot"),
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			opt := slot.Options{MaxBoots: maxBoots, Logger: log}
			if len(trust) > 0 {
				ts, err := bootTrust(root, trust)
				if err != nil {
					return err
				}
				opt.Trust = ts
			}
			s, err := slot.Open(root, opt)
			if err != nil {
				return err
			}
			c, err := s.Boot()
			if err != nil {
				return err
			}
			log.Info("posboot: starting", "slot", c.Slot, "version", c.Version.String(), "trial", c.Trial, "boots", c.Boots, "rolled_back", c.Rolled)
			env := append(os.Environ(), c.Env(root)...)
			err = exec(c.Posd, append([]string{c.Posd}, args...), env)
			return fmt.Errorf("posboot: exec %s: %w", c.Posd, err)
		},
	}
	cmd.SetVersionTemplate("{{.Version}}\n") // version.Line: one form for posd, posctl, posboot
	f := cmd.Flags()
	f.StringVar(&root, "root", "/var/lib/pos/slots", "slot root directory")
	f.IntVar(&maxBoots, "max-boots", slot.DefaultMaxBoots, "trial starts before the previous slot comes back")
	f.StringSliceVar(&trust, "trust", nil, "firmware public keys: also check each slot's signature at boot")
	return cmd
}

func main() {
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	if err := newRoot(syscall.Exec, log).Execute(); err != nil {
		fmt.Fprintln(os.Stderr, "posboot:", err)
		if errors.Is(err, slot.ErrNoBootable) {
			os.Exit(3)
		}
		os.Exit(1)
	}
}

// bootTrust is what installed slots are checked against: the --trust anchors and the keys
// of the firmware key statement installed in the slot root (ROOT/firmware-keys.stmt), so
// that a slot installed under a key the statement retired still boots. A damaged
// statement stops the boot (it is never ignored).
func bootTrust(root string, anchors []string) (*fwkey.TrustStore, error) {
	ts, err := fwkey.LoadTrustStore(anchors...)
	if err != nil {
		return nil, err
	}
	st, err := fwkey.LoadStatement(filepath.Join(root, fwkey.StatementFile))
	if errors.Is(err, fs.ErrNotExist) {
		return ts, nil
	}
	if err != nil {
		return nil, err
	}
	return ts.Union(st.TrustStore()), nil
}
