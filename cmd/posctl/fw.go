package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/packterm/pos/firmware/bundle"
	"github.com/packterm/pos/internal/atomicfile"
)

// fwCmd is the parent of the firmware bundle commands (fw_*.go add their subcommands).
var fwCmd = &cobra.Command{Use: "fw", Short: "Firmware bundles: build, sign, verify, inspect"}

func init() { root.AddCommand(fwCmd) }

// parseTarget reads a target as scripts/build.sh names it: linux-armv6, linux-armv7,
// linux-arm64, linux-amd64…
func parseTarget(s, board string) (bundle.Target, error) {
	goos, arch, ok := strings.Cut(s, "-")
	if !ok {
		return bundle.Target{}, fmt.Errorf("fw: target %q: want OS-ARCH (linux-armv7, linux-arm64…)", s)
	}
	t := bundle.Target{OS: goos, Arch: arch, Board: board}
	switch arch {
	case "armv6":
		t.Arch, t.ARM = "arm", 6
	case "armv7":
		t.Arch, t.ARM = "arm", 7
	case "arm":
		return bundle.Target{}, fmt.Errorf("fw: target %q: say armv6 or armv7", s)
	}
	return t, nil
}

// writeFileAtomic writes path through write via a temporary file renamed into place
// (atomicfile: fsynced, the directory too), so an interrupted command never leaves a
// partial bundle under the final name.
func writeFileAtomic(path string, write func(w io.Writer) error) error {
	return atomicfile.Write(path, 0o600, write, nil)
}

// printManifest prints a bundle's manifest for verify and inspect.
func printManifest(cmd *cobra.Command, h *bundle.Header) {
	w := cmd.OutOrStdout()
	m := h.Manifest
	fmt.Fprintf(w, "format:      %d\n", m.Format)
	fmt.Fprintf(w, "version:     %v (replaces %v or newer)\n", m.Version, m.MinVersion)
	fmt.Fprintf(w, "target:      %v\n", m.Target)
	if h.Signed() {
		fmt.Fprintf(w, "signed by:   firmware key %v\n", h.KeyID)
	} else {
		fmt.Fprintf(w, "signed by:   nobody (unsigned: sign it with posctl fw sign)\n")
	}
	fmt.Fprintf(w, "size:        %d bytes (header %d)\n", h.BundleSize(), h.Size())
	for _, f := range m.Files {
		fmt.Fprintf(w, "  %-12s %-20s %10d  %s\n", f.Type, f.Name, f.Size, f.SHA256)
	}
}
