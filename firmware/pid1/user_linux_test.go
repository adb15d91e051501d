package pid1

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

func owner(t *testing.T, p string) (uint32, uint32) {
	t.Helper()
	fi, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	st := fi.Sys().(*syscall.Stat_t)
	return st.Uid, st.Gid
}

// TestHandOver: the service's directories, built as root's, are the pos user's after
// stage 2 hands them over (every file below), and a device node matching the globs is
// the user's, mode 0660, while what matches none stays root's.
func TestHandOver(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("chown needs root")
	}
	dir := t.TempDir()
	slots, data := filepath.Join(dir, "slots"), filepath.Join(dir, "data")
	for _, f := range []string{filepath.Join(slots, "a", "posd"), filepath.Join(slots, "state"), filepath.Join(data, "journal.db")} {
		if err := os.MkdirAll(filepath.Dir(f), 0o750); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	dev := filepath.Join(dir, "dev")
	os.Mkdir(dev, 0o755)
	for _, f := range []string{"hvc0", "hvc1", "ttyAMA0"} {
		if err := os.WriteFile(filepath.Join(dev, f), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	u := &User{UID: PosUser, GID: PosUser, Owned: []string{slots, data}, Devices: []string{filepath.Join(dev, "hvc*"), filepath.Join(dev, "ttyUSB*")}}
	if err := u.handOver(); err != nil {
		t.Fatal(err)
	}
	if err := u.devices(); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{slots, filepath.Join(slots, "a"), filepath.Join(slots, "a", "posd"), filepath.Join(slots, "state"), data, filepath.Join(data, "journal.db"), filepath.Join(dev, "hvc0"), filepath.Join(dev, "hvc1")} {
		if uid, gid := owner(t, p); uid != PosUser || gid != PosUser {
			t.Errorf("%s: owned by %d:%d, want the pos user's", p, uid, gid)
		}
	}
	if fi, _ := os.Stat(filepath.Join(dev, "hvc0")); fi.Mode().Perm() != 0o660 {
		t.Errorf("hvc0 mode %v, want 0660", fi.Mode().Perm())
	}
	if uid, _ := owner(t, filepath.Join(dev, "ttyAMA0")); uid != 0 {
		t.Errorf("the console's port was handed over (uid %d)", uid)
	}
	if uid, _ := owner(t, dir); uid != 0 {
		t.Errorf("the directory above was handed over (uid %d)", uid)
	}
}

// TestRunAs: the service starts as the user, with no supplementary group (root's would be
// kept otherwise).
func TestRunAs(t *testing.T) {
	c := exec.Command("/bin/true")
	(&User{UID: PosUser, GID: PosUser}).runAs(c)
	cr := c.SysProcAttr.Credential
	if cr == nil || cr.Uid != PosUser || cr.Gid != PosUser || cr.Groups == nil || len(cr.Groups) != 0 {
		t.Fatalf("credential %+v, want uid and gid %d and no group", cr, PosUser)
	}
	if os.Geteuid() != 0 {
		return
	}
	if _, err := exec.LookPath("id"); err != nil {
		t.Skip("no id command")
	}
	c = exec.Command("id", "-u")
	(&User{UID: PosUser, GID: PosUser}).runAs(c)
	out, err := c.Output()
	if err != nil || string(out) != "998\n" {
		t.Errorf("id -u as the user: %q %v", out, err)
	}
}
