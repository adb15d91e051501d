package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"

	"github.com/spf13/cobra"

	"github.com/packterm/pos/internal/version"
)

// root is the posctl command; subcommand files add themselves to it in their init.
var root = &cobra.Command{
	Use:           "posctl",
	Short:         "Pack terminal operator and technician tool",
	SilenceUsage:  true,
	SilenceErrors: true,
	Version:       version.Line("posctl"),
}

// The --version line is version.Line's, the same form as posd's and posboot's.
func init() { root.SetVersionTemplate("{{.Version}}\n") }

// exitError carries an exit status other than 1 (e.g. "no code found" vs usage errors).
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

func main() {
	ignoreSIGPIPE()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Standard error stays an *os.File: the progress bars look for a terminal there.
	root.SetOut(pipeWriter{w: os.Stdout, once: new(sync.Once), gone: cancel})
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo})))
	err := root.ExecuteContext(ctx)
	if err == nil || readerGone(err) || (ctx.Err() != nil && errors.Is(err, context.Canceled)) {
		return
	}
	fmt.Fprintln(os.Stderr, "posctl:", err)
	if ee, ok := err.(*exitError); ok {
		os.Exit(ee.code)
	}
	os.Exit(1)
}
