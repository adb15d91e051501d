package main

import (
	"fmt"
	"log/slog"
	"os"

	"github.com/spf13/cobra"

	"github.com/packterm/pos/internal/version"
)

// root is the posctl command; subcommand files add themselves to it in their init.
var root = &cobra.Command{
	Use:           "posctl",
	Short:         "Pack terminal operator and technician tool",
	SilenceUsage:  true,
	SilenceErrors: true,
	Version:       version.String(),
}

// exitError carries an exit status other than 1 (e.g. "no code found" vs usage errors).
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

func main() {
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo})))
	if err := root.Execute(); err != nil {
		fmt.Fprintln(os.Stderr, "posctl:", err)
		if ee, ok := err.(*exitError); ok {
			os.Exit(ee.code)
		}
		os.Exit(1)
	}
}
