//go:build production

package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
)

// emulate refuses: the production posd (-tags production, scripts/build.sh's dist/) links
// no emulator. The lab builds (go run ./cmd/posd, dist/lab/) have it.
func emulate(_ context.Context, _ flags, _ io.Reader, _, stderr io.Writer, _ *slog.Logger) int {
	fmt.Fprintln(stderr, "posd: this posd was built without the emulator (-tags production): --emulate needs a lab build (go run ./cmd/posd --emulate, or dist/lab/posd-*)")
	return 2
}

// clockFlags are the emulator's virtual clock flags: none in a production build.
type clockFlags struct{}

func (c *clockFlags) register(*flag.FlagSet) {}
