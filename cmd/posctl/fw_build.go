package main

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/packterm/pos/firmware/bundle"
	"github.com/packterm/pos/firmware/fwkey"
	"github.com/packterm/pos/internal/version"
)

func init() {
	var o struct {
		version, minVersion, target, board string
		posd, posctl, config, key, out     string
		operatorKeys                       []string
	}
	cmd := &cobra.Command{
		Use:   "build --version V --target T --posd F --posctl F --config F --operator-key F... --out BUNDLE",
		Short: "Build a firmware bundle (signed with --key, else unsigned for posctl fw sign)",
		Long: "Build a firmware bundle: a manifest (format, version, target, minimum version replaced, size\n" +
			"and SHA-256 of each file) followed by posd, posctl, the default config and the trusted\n" +
			"operator keys. --target is as scripts/build.sh names it (linux-armv7, linux-arm64…).\n" +
			"posd and posctl must be stamped with --version (VERSION=2.1.0 scripts/build.sh): the\n" +
			"stamp is read from the files, never run, and another version or none is refused.\n" +
			"Without --key the bundle is unsigned: terminals refuse it until posctl fw sign signs it.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			for flag, v := range map[string]string{"version": o.version, "target": o.target, "posd": o.posd, "posctl": o.posctl, "config": o.config, "out": o.out} {
				if v == "" {
					return fmt.Errorf("fw build: --%s is required", flag)
				}
			}
			v, err := bundle.ParseVersion(o.version)
			if err != nil {
				return err
			}
			minv, err := bundle.ParseVersion(o.minVersion)
			if err != nil {
				return err
			}
			for name, path := range map[string]string{"posd": o.posd, "posctl": o.posctl} {
				if err := checkStamp(name, path, v); err != nil {
					return err
				}
			}
			t, err := parseTarget(o.target, o.board)
			if err != nil {
				return err
			}
			var priv ed25519.PrivateKey
			if o.key != "" {
				if priv, err = fwkey.LoadPrivate(o.key); err != nil {
					return err
				}
			}
			srcs := []bundle.Source{fileSource(bundle.Posd, "posd", o.posd), fileSource(bundle.Posctl, "posctl", o.posctl),
				fileSource(bundle.Config, "posd.toml", o.config)}
			for _, k := range o.operatorKeys {
				srcs = append(srcs, fileSource(bundle.OperatorKey, filepath.Base(k), k))
			}
			m, err := bundle.NewManifest(v, minv, t, srcs)
			if err != nil {
				return err
			}
			if err := writeFileAtomic(o.out, func(f io.Writer) error { return bundle.Write(f, m, srcs, priv) }); err != nil {
				return err
			}
			state := "unsigned"
			if priv != nil {
				state = "signed by " + fwkey.IDOf(priv.Public().(ed25519.PublicKey)).String()
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s: firmware %v for %v, %d files, %d bytes, %s\n", o.out, v, t, len(m.Files), m.PayloadSize(), state)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.version, "version", "", "firmware version MAJOR.MINOR.PATCH")
	f.StringVar(&o.minVersion, "min-version", "0.0.0", "oldest installed version this bundle may replace")
	f.StringVar(&o.target, "target", "", "target: linux-armv6, linux-armv7, linux-arm64 or another OS-GOARCH")
	f.StringVar(&o.board, "board", "rpi", "board profile the bundle is for")
	f.StringVar(&o.posd, "posd", "", "posd binary (e.g. dist/posd-linux-armv7)")
	f.StringVar(&o.posctl, "posctl", "", "posctl binary")
	f.StringVar(&o.config, "config", "", "default configuration file")
	f.StringSliceVar(&o.operatorKeys, "operator-key", nil, "trusted operator public key file (repeat for several)")
	f.StringVar(&o.key, "key", "", "firmware private key (firmware.key); unsigned without")
	f.StringVar(&o.out, "out", "", "bundle file to write")
	fwCmd.AddCommand(cmd)
}

// fileSource is a bundle source read from a file.
func fileSource(t bundle.FileType, name, path string) bundle.Source {
	return bundle.Source{Type: t, Name: name, Open: func() (io.ReadCloser, error) { return os.Open(path) }}
}

// checkStamp refuses a binary whose version stamp (read from the file, not run: it may be
// an ARM binary) is not the bundle's version v, so that `posd --version` on the terminal
// says what the manifest says.
func checkStamp(name, path string, v bundle.Version) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("fw build: %w", err)
	}
	defer f.Close()
	st, err := version.FromBinary(f)
	if err != nil {
		return fmt.Errorf("fw build: %s %s: %w; build it with VERSION=%v scripts/build.sh", name, path, err, v)
	}
	if sv, err := bundle.ParseVersion(st.Version); err != nil || sv != v {
		return fmt.Errorf("fw build: %s %s is version %q, the bundle %v: %w; build it with VERSION=%v scripts/build.sh",
			name, path, st.Version, v, errStampMismatch, v)
	}
	return nil
}

// errStampMismatch: a binary stamped with another version than the bundle's.
var errStampMismatch = errors.New("the binary's stamped version is not the bundle's")
