package fleet_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/validate/decide"
	"github.com/packterm/pos/validate/journal"
)

// session opens the journal in dir, connects a client to url with its state in dir, runs
// fn and closes both.
func session(t *testing.T, f *testFleet, id, dir, url string, fn func(j *journal.Journal, c *fleet.Client)) {
	t.Helper()
	j, err := journal.Open(dir, journal.Options{Terminal: id})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	c, err := fleet.Connect(fleet.Options{Terminal: id, URL: url, Credentials: f.seeds[id], Journal: j, StateDir: dir, Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fn(j, c)
}

// TestRestoredTerminalCaught: a retailer (or a technician by mistake) puts a terminal's
// data directory back from a copy made three records ago. At its next connection the
// terminal finds its journal behind what it published: every claim is refused
// (fleet.ErrRestored, decide.FleetRestored: JOURNAL RESTAURÉ, nothing paid), also later
// with the fleet out of reach (the state is kept); the fleet records the finding. A journal
// started afresh (another epoch: the technician's act) is no longer held. On the code
// before, the restored terminal claimed and paid as if nothing had happened.
func TestRestoredTerminalCaught(t *testing.T) {
	f := newRegistry(t, 1)
	f.start(t, 1, nil)
	ctx := context.Background()
	dir, copyDir := t.TempDir(), filepath.Join(t.TempDir(), "copy")
	sync := func(c *fleet.Client) {
		waitOnline(t, c)
		if err := c.Sync(ctx); err != nil {
			t.Fatal(err)
		}
	}
	session(t, f, "T000", dir, f.urls[0], func(j *journal.Journal, c *fleet.Client) {
		for i := range 3 {
			mustAppend(t, j, payout(ticketN(i), 500, false))
		}
		sync(c)
	})
	copyTree(t, dir, copyDir) // the copy
	session(t, f, "T000", dir, f.urls[0], func(j *journal.Journal, c *fleet.Client) {
		for i := 3; i < 6; i++ {
			mustAppend(t, j, payout(ticketN(i), 500, false))
		}
		sync(c)
	})

	// The copy put back: its journal ends at record 3, the fleet holds 6.
	session(t, f, "T000", copyDir, f.urls[0], func(j *journal.Journal, c *fleet.Client) {
		waitOnline(t, c)
		if err := c.Sync(ctx); err != nil {
			t.Fatal(err)
		}
		_, err := c.Claim(ctx, codeOf(ticketN(4)), lotOf(ticketN(4)))
		if !errors.Is(err, fleet.ErrRestored) {
			t.Fatalf("a restored terminal's claim: %v", err)
		}
		if a, _ := fleet.Answer(c, err); a != decide.FleetRestored {
			t.Fatalf("answer %v", a)
		}
	})
	found := false
	for _, r := range refusals(t, f.js) {
		found = found || r.Terminal == "T000" && r.Reason == fleet.RefusedRestored
	}
	if !found {
		t.Fatal("the fleet recorded no finding of the restored terminal")
	}
	// Restarted with the fleet out of reach: still nothing paid, not even offline.
	session(t, f, "T000", copyDir, "nats://"+freePort(t), func(j *journal.Journal, c *fleet.Client) {
		if _, err := c.Claim(ctx, codeOf(ticketN(7)), lotOf(ticketN(7))); !errors.Is(err, fleet.ErrRestored) {
			t.Fatalf("offline claim of a restored terminal: %v", err)
		}
	})
	// The technician starts the journal afresh (a reset: another epoch): no longer held.
	if err := os.Remove(filepath.Join(copyDir, journal.DBFile)); err != nil {
		t.Fatal(err)
	}
	j, err := journal.Open(copyDir, journal.Options{Terminal: "T000"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := j.Reset("technician T-1"); err != nil {
		t.Fatal(err)
	}
	j.Close()
	session(t, f, "T000", copyDir, f.urls[0], func(j *journal.Journal, c *fleet.Client) {
		waitOnline(t, c)
		if _, err := c.Claim(ctx, codeOf(ticketN(8)), lotOf(ticketN(8))); err != nil {
			t.Fatalf("claim after a new journal: %v", err)
		}
	})
}

// copyTree copies the files of src into dst, modes kept (a backup of a data directory).
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		fi, err := d.Info()
		if err != nil {
			return err
		}
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), fi.Mode().Perm())
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, fi.Mode().Perm())
	})
	if err != nil {
		t.Fatal(err)
	}
}
