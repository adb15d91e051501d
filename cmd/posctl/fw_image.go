package main

import (
	"bufio"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/packterm/pos/firmware/bundle"
	"github.com/packterm/pos/firmware/fwkey"
	"github.com/packterm/pos/firmware/image"
	"github.com/packterm/pos/firmware/slot"
)

func init() {
	var key, version, target, board string
	seal := &cobra.Command{
		Use:   "seal-image --key firmware.key --version V --target linux-arm64 --board B IMAGE",
		Short: "Sign a disk image (scripts/image.sh) with the firmware key: the seal goes inside the image, before its first partition",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			priv, err := fwkey.LoadPrivate(key)
			if err != nil {
				return err
			}
			v, err := bundle.ParseVersion(version)
			if err != nil {
				return err
			}
			t, err := parseTarget(target, board)
			if err != nil {
				return err
			}
			f, err := os.OpenFile(args[0], os.O_RDWR, 0)
			if err != nil {
				return fmt.Errorf("fw seal-image: %w", err)
			}
			defer f.Close()
			st, err := f.Stat()
			if err != nil {
				return fmt.Errorf("fw seal-image: %w", err)
			}
			s, err := image.Write(f, st.Size(), v, t, priv)
			if err != nil {
				return err
			}
			if err := f.Sync(); err != nil {
				return fmt.Errorf("fw seal-image: %w", err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s: image %v for %v, %d bytes, sha256 %s, signed by %v\n",
				args[0], v, t, s.Manifest.Size, s.Manifest.SHA256, s.KeyID)
			return nil
		},
	}
	seal.Flags().StringVar(&key, "key", "", "firmware private key file")
	seal.Flags().StringVar(&version, "version", "", "the image's version (MAJOR.MINOR.PATCH)")
	seal.Flags().StringVar(&target, "target", "linux-arm64", "target, as for fw build")
	seal.Flags().StringVar(&board, "board", "", "board profile (qemu-virt, rpi)")
	fwCmd.AddCommand(seal)

	var root string
	var pubs []string
	var commit bool
	install := &cobra.Command{
		Use:   "install --root SLOTS --trust firmware.pub [--commit] BUNDLE",
		Short: "Install a bundle into a slot root offline (an image build's first slot); --commit marks it good at once",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			trust, err := fwkey.LoadTrustStore(pubs...)
			if err != nil {
				return err
			}
			f, err := os.Open(args[0])
			if err != nil {
				return fmt.Errorf("fw install: %w", err)
			}
			defer f.Close()
			r, err := bundle.NewReader(bufio.NewReaderSize(f, 1<<16), trust)
			if err != nil {
				return err
			}
			t := r.Manifest().Target
			st, err := slot.Open(root, slot.Options{Target: &t, Trust: trust})
			if err != nil {
				return err
			}
			res, err := st.Install(cmd.Context(), r)
			if err != nil {
				return err
			}
			if commit {
				if err := st.MarkGood(); err != nil {
					return err
				}
			}
			fmt.Fprintf(cmd.OutOrStdout(), "installed %v in slot %s (committed: %v)\n", r.Manifest().Version, res.Slot, commit)
			return nil
		},
	}
	install.Flags().StringVar(&root, "root", "", "the slot root")
	install.Flags().StringSliceVar(&pubs, "trust", nil, "trusted firmware public key (repeatable)")
	install.Flags().BoolVar(&commit, "commit", false, "mark the installed slot good (no trial)")
	_ = install.MarkFlagRequired("root")
	_ = install.MarkFlagRequired("trust")
	fwCmd.AddCommand(install)
}

// isImage tells a sealed disk image from a bundle by its first bytes (a bundle starts
// with its magic, an image with a partition table).
func isImage(f io.ReaderAt) bool {
	var b [len(bundle.Magic)]byte
	_, err := f.ReadAt(b[:], 0)
	return err == nil && string(b[:]) != bundle.Magic
}

// verifyImage is fw verify on a disk image.
func verifyImage(cmd *cobra.Command, f *os.File, trust *fwkey.TrustStore) error {
	s, err := image.Verify(f, trust)
	if err != nil {
		return err
	}
	m := s.Manifest
	fmt.Fprintf(cmd.OutOrStdout(), "ok: image %v for %v, %d bytes, signed by firmware key %v\n", m.Version, m.Target, m.Size, s.KeyID)
	return nil
}
