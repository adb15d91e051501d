package main

import (
	"bufio"
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

const (
	unitFile     = "../../scripts/posboot.service"
	sysusersFile = "../../scripts/pos-sysusers.conf"
	tmpfilesFile = "../../scripts/pos-tmpfiles.conf"
	// maxExposure is the highest `systemd-analyze security` exposure accepted (issue 30).
	maxExposure = 5.0
)

// unitSettings reads a unit file: every setting's values in file order, by name.
func unitSettings(t *testing.T, path string) map[string][]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == '[' {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			t.Fatalf("%s: %q: not a setting", path, line)
		}
		out[k] = append(out[k], v)
	}
	return out
}

// TestServiceUnit: scripts/posboot.service runs posboot and posd as the pos user with
// no capability, a read-only system but for the directories scripts/pos-tmpfiles.conf
// gives that user, its devices only, and stops restarting on the exits restarting cannot
// mend; posboot gets posd's configuration (one firmware key list). With systemd-analyze
// present, the unit verifies cleanly and its exposure is at most 5.0. The unit before
// issue 30 ran as root with no hardening (9.6 UNSAFE) and restarted forever.
func TestServiceUnit(t *testing.T) {
	u := unitSettings(t, unitFile)
	one := func(k string) string {
		t.Helper()
		if len(u[k]) != 1 {
			t.Errorf("%s: %d settings, want 1", k, len(u[k]))
			return ""
		}
		return u[k][0]
	}
	for k, want := range map[string]string{
		"User": "pos", "Group": "pos", "SupplementaryGroups": "dialout gpio input",
		"NoNewPrivileges": "yes", "CapabilityBoundingSet": "", "AmbientCapabilities": "",
		"ProtectSystem": "strict", "ProtectHome": "yes", "PrivateTmp": "yes",
		"DevicePolicy": "closed", "RestrictAddressFamilies": "AF_UNIX AF_INET AF_INET6",
		"MemoryDenyWriteExecute": "yes", "Restart": "always",
	} {
		if got := one(k); got != want {
			t.Errorf("%s=%s, want %s", k, got, want)
		}
	}
	prevent := strings.Fields(one("RestartPreventExitStatus"))
	for _, code := range []int{ExitNoBootable, ExitUnusable} {
		if !slices.Contains(prevent, strconv.Itoa(code)) {
			t.Errorf("RestartPreventExitStatus=%v: restarts on posboot's exit %d", prevent, code)
		}
	}
	for _, code := range []int{0, 1, 2, 75} { // posd's: a rollback needs its restarts
		if slices.Contains(prevent, strconv.Itoa(code)) {
			t.Errorf("RestartPreventExitStatus=%v: does not restart on posd's exit %d", prevent, code)
		}
	}

	exe := strings.Fields(one("ExecStart"))
	flag := func(name string) string {
		for i, a := range exe {
			if a == name && i+1 < len(exe) {
				return exe[i+1]
			}
		}
		return ""
	}
	if slices.Contains(exe, "--trust") || flag("--config") == "" {
		t.Errorf("ExecStart=%s: want --config (posd's [keys] firmware) and no --trust", strings.Join(exe, " "))
	}
	// The directories the unit may write are the pos user's: the slot root, posd's data
	// directory and the configuration's directory, and nothing else.
	rw := strings.Fields(one("ReadWritePaths"))
	slices.Sort(rw)
	owned := posDirectories(t)
	if !slices.Equal(rw, owned) {
		t.Errorf("ReadWritePaths=%v, but the pos user's directories (%s) are %v", rw, tmpfilesFile, owned)
	}
	for _, p := range []string{flag("--root"), filepath.Dir(flag("--config")), "/var/lib/posd"} {
		if !slices.Contains(rw, p) {
			t.Errorf("ReadWritePaths=%v lacks %s", rw, p)
		}
	}

	if _, err := exec.LookPath("systemd-analyze"); err != nil {
		t.Log("systemd-analyze not installed: exposure and verify not checked")
		return
	}
	score := exposure(t, unitFile)
	t.Logf("systemd-analyze security --offline=yes %s: %.1f", unitFile, score)
	if score > maxExposure {
		t.Errorf("exposure %.1f, want at most %.1f", score, maxExposure)
	}
	verify(t, unitFile)
}

// posDirectories are the directories scripts/pos-tmpfiles.conf creates for the pos user.
func posDirectories(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile(tmpfilesFile)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) >= 4 && f[0] == "d" && f[3] == "pos" {
			out = append(out, f[1])
		}
	}
	slices.Sort(out)
	return out
}

var overall = regexp.MustCompile(`Overall exposure level for [^:]+: ([0-9]+\.[0-9])`)

// exposure is systemd-analyze's overall exposure of a unit file.
func exposure(t *testing.T, unit string) float64 {
	t.Helper()
	out, err := exec.Command("systemd-analyze", "security", "--offline=yes", "--no-pager", unit).CombinedOutput()
	m := overall.FindSubmatch(out)
	if m == nil {
		t.Fatalf("systemd-analyze security: %v\n%s", err, out)
	}
	v, err := strconv.ParseFloat(string(m[1]), 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// verify runs systemd-analyze verify on a copy of the unit whose ExecStart names an
// executable that exists here (this test binary); any warning fails.
func verify(t *testing.T, unit string) {
	t.Helper()
	data, err := os.ReadFile(unit)
	if err != nil {
		t.Fatal(err)
	}
	self, err := filepath.Abs(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	copyPath := filepath.Join(t.TempDir(), filepath.Base(unit))
	if err := os.WriteFile(copyPath, bytes.ReplaceAll(data, []byte("/usr/local/bin/posboot"), []byte(self)), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("systemd-analyze", "verify", "--no-pager", copyPath).CombinedOutput()
	if err != nil || len(bytes.TrimSpace(out)) > 0 {
		t.Errorf("systemd-analyze verify: %v\n%s", err, out)
	}
}

// TestServiceUserAndDirectories runs scripts/pos-sysusers.conf and pos-tmpfiles.conf in a
// scratch root, as an image build or an install would: the pos user in dialout, gpio and
// input, its directories its own, the keys' root's.
func TestServiceUserAndDirectories(t *testing.T) {
	for _, tool := range []string{"systemd-sysusers", "systemd-tmpfiles"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed", tool)
		}
	}
	if os.Getuid() != 0 {
		t.Skip("systemd-tmpfiles --root changes owners: needs root")
	}
	root := t.TempDir()
	write := func(p string, data []byte) {
		t.Helper()
		p = filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	read := func(p string) []byte {
		t.Helper()
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	// A Debian base system's groups (base-passwd).
	write("etc/passwd", []byte("root:x:0:0:root:/root:/bin/sh\n"))
	write("etc/group", []byte("root:x:0:\ndialout:x:20:\ninput:x:101:\n"))
	write("usr/lib/sysusers.d/pos.conf", read(sysusersFile))
	write("usr/lib/tmpfiles.d/pos.conf", read(tmpfilesFile))
	for _, args := range [][]string{{"systemd-sysusers", "--root=" + root}, {"systemd-tmpfiles", "--root=" + root, "--create"}} {
		if out, err := exec.Command(args[0], args[1:]...).CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", args[0], err, out)
		}
	}
	passwd, group := string(read(filepath.Join(root, "etc/passwd"))), string(read(filepath.Join(root, "etc/group")))
	m := regexp.MustCompile(`(?m)^pos:x:([0-9]+):`).FindStringSubmatch(passwd)
	if m == nil {
		t.Fatalf("no pos user:\n%s", passwd)
	}
	uid, _ := strconv.Atoi(m[1])
	for _, g := range []string{"dialout", "gpio", "input"} {
		if !regexp.MustCompile(`(?m)^` + g + `:x:[0-9]+:(.*,)?pos(,.*)?$`).MatchString(group) {
			t.Errorf("pos not in group %s:\n%s", g, group)
		}
	}
	for _, d := range []struct {
		path string
		uid  int
	}{{"etc/pos/keys", 0}, {"etc/pos", 0}, {"etc/pos/conf", uid}, {"var/lib/pos/slots", uid}, {"var/lib/posd", uid}} {
		fi, err := os.Stat(filepath.Join(root, d.path))
		if err != nil {
			t.Fatal(err)
		}
		if got := fileUID(fi); got != d.uid {
			t.Errorf("/%s owned by uid %d, want %d", d.path, got, d.uid)
		}
		if d.uid == 0 && fi.Mode().Perm()&0o022 != 0 {
			t.Errorf("/%s: mode %04o: writable by others than root", d.path, fi.Mode().Perm())
		}
	}
	// posboot accepts a firmware key in root's key directory (main's rule: root only).
	key := filepath.Join(root, "etc/pos/keys/firmware.pub")
	write("etc/pos/keys/firmware.pub", []byte("x"))
	if err := checkAnchor(key, -1); err != nil {
		t.Errorf("a key in /etc/pos/keys: %v", err)
	}
}

// fileUID is the owner of fi (-1 when unknown).
func fileUID(fi fs.FileInfo) int {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return int(st.Uid)
	}
	return -1
}
