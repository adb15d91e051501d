package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestCheckConfigReportsEveryProblem(t *testing.T) {
	path := filepath.Join(t.TempDir(), "posd.toml")
	bad := "[terminal]\nid = \"T1\"\n[limits]\npay_per_ticket = \"abc\"\n[display]\nsize = \"40x2\"\n"
	if err := os.WriteFile(path, []byte(bad), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := run([]string{"--check-config", path}, nil, &out, &errb); code != 1 {
		t.Fatalf("exit %d, want 1\n%s", code, errb.String())
	}
	for _, want := range []string{"pay_per_ticket", "size", path + ":"} {
		if !strings.Contains(errb.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, errb.String())
		}
	}
}

func TestNoModeIsAnError(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run(nil, nil, &out, &errb); code != 2 || !strings.Contains(errb.String(), "--emulate") {
		t.Errorf("exit %d: %s", code, errb.String())
	}
}

func TestVersion(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"--version"}, nil, &out, &errb); code != 0 || !strings.HasPrefix(out.String(), "posd dev (commit ") {
		t.Errorf("exit %d: %q %s", code, out.String(), errb.String())
	}
}

// On a board, posd takes the service manager's socket and watchdog period and the slot
// posboot booted from its environment.
func TestBoardOptionsFromEnvironment(t *testing.T) {
	t.Setenv("NOTIFY_SOCKET", "/run/systemd/notify")
	t.Setenv("WATCHDOG_USEC", "30000000")
	t.Setenv("WATCHDOG_PID", "")
	for k, v := range map[string]string{"POS_SLOT": "b", "POS_SLOT_ROOT": "/var/lib/pos/slots", "POS_SLOT_DIR": "/var/lib/pos/slots/b",
		"POS_SLOT_VERSION": "2.1.0", "POS_SLOT_TRIAL": "1"} {
		t.Setenv(k, v)
	}
	o := boardOptions("posd.toml", nil, nil)
	if o.Notifier == nil || o.Notifier.Socket != "/run/systemd/notify" || o.Watchdog != 30*time.Second {
		t.Errorf("service manager: %+v %v", o.Notifier, o.Watchdog)
	}
	if o.Booted == nil || o.Booted.Slot != "b" || !o.Booted.Trial || o.Booted.Version.String() != "2.1.0" {
		t.Errorf("booted slot: %+v", o.Booted)
	}
	if !filepath.IsAbs(o.ConfigPath) || filepath.Base(o.ConfigPath) != "posd.toml" {
		t.Errorf("config path %q", o.ConfigPath)
	}
	os.Unsetenv("POS_SLOT_ROOT")
	if o := boardOptions("posd.toml", nil, nil); o.Booted != nil {
		t.Errorf("booted without posboot: %+v", o.Booted)
	}
}

// TestCheckConfigAgreesWithBoot: a file posd --check-config says ok to is not refused by
// posd --config for its content, and one posd --config refuses (a status page beyond
// loopback without the technician token) --check-config refuses too, naming the key.
func TestCheckConfigAgreesWithBoot(t *testing.T) {
	example, err := os.ReadFile("../../device/config/testdata/example.toml")
	if err != nil {
		t.Fatal(err)
	}
	file := strings.Replace(string(example), "token_sha256 = ", "# token_sha256 = ", 1)
	file = strings.Replace(file, `listen = "127.0.0.1:8080"`, `listen = "0.0.0.0:8080"`, 1)
	path := filepath.Join(t.TempDir(), "posd.toml")
	if err := os.WriteFile(path, []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := run([]string{"--check-config", path}, nil, &out, &errb); code != 1 || !strings.Contains(errb.String(), "http.listen") {
		t.Errorf("--check-config: exit %d\n%s%s", code, out.String(), errb.String())
	}
	out.Reset()
	errb.Reset()
	if code := run([]string{"--config", path}, nil, &out, &errb); code != 2 || !strings.Contains(errb.String(), "http.listen") {
		t.Errorf("--config: exit %d\n%s%s", code, out.String(), errb.String())
	}
}
