package main

import (
	"bytes"
	"testing"
	"testing/synctest"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// run executes posctl with args inside a synctest bubble (virtual time: the real-clock
// waits of the drivers and of the emulated technician cost nothing) and returns its output.
func run(t *testing.T, args ...string) (string, error) {
	catchSignals = false
	resetFlags(root)
	var out bytes.Buffer
	var err error
	synctest.Test(t, func(t *testing.T) {
		root.SetArgs(args)
		root.SetOut(&out)
		root.SetErr(&out)
		defer root.SetOut(nil)
		defer root.SetErr(nil)
		err = root.Execute()
	})
	return out.String(), err
}

// resetFlags puts every flag back to its default: cobra keeps values between Execute
// calls in one process.
func resetFlags(c *cobra.Command) {
	c.Flags().VisitAll(func(f *pflag.Flag) {
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			_ = sv.Replace(nil) // Set would append, and "[]" is not an empty default
		} else {
			_ = f.Value.Set(f.DefValue)
		}
		f.Changed = false
	})
	for _, sub := range c.Commands() {
		resetFlags(sub)
	}
}
