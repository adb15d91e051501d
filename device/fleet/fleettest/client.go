package fleettest

import (
	"testing"

	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/validate/journal"
)

// Connect connects a terminal's fleet client with o (Terminal, URL, Credentials, …), its
// journal and state in a directory of its own, both closed when the test ends.
func Connect(t testing.TB, o fleet.Options) (*fleet.Client, *journal.Journal) {
	t.Helper()
	dir := t.TempDir()
	j, err := journal.Open(dir, journal.Options{Terminal: o.Terminal})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close() })
	o.Journal, o.StateDir = j, dir
	c, err := fleet.Connect(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c, j
}
