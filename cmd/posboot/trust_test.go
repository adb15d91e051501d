package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"periph.io/x/conn/v3/gpio"

	"github.com/packterm/pos/device/board"
	"github.com/packterm/pos/drivers/gpiosim"
	"github.com/packterm/pos/firmware/bundle"
	"github.com/packterm/pos/firmware/bundle/bundletest"
	"github.com/packterm/pos/firmware/fwkey"
	"github.com/packterm/pos/firmware/slot"
)

// site is a slot root holding one firmware signed by key, and a key directory (0755,
// the test's user) where public keys are written.
type site struct {
	root, keys string
}

func newSite(t *testing.T, key bundletest.Key) site {
	t.Helper()
	self, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	s := site{root: filepath.Join(dir, "slots"), keys: filepath.Join(dir, "keys")}
	for _, d := range []string{s.root, s.keys} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	st, err := slot.Open(s.root, slot.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := bundle.NewReader(bytes.NewReader(key.Build(bundletest.Spec{Version: "1.0.0", Posd: self})), key.Trust())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Install(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	return s
}

// pub writes key's public key file as name in the key directory and returns its path.
func (s site) pub(t *testing.T, name string, key bundletest.Key) string {
	t.Helper()
	p := filepath.Join(s.keys, name)
	if err := os.WriteFile(p, fwkey.MarshalPublic(key.Pub, "test"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// config writes a posd configuration naming firmware as [keys] firmware.
func (s site) config(t *testing.T, firmware ...string) string {
	t.Helper()
	q := make([]string, len(firmware))
	for i, f := range firmware {
		q[i] = fmt.Sprintf("%q", f)
	}
	p := filepath.Join(s.keys, "..", "posd.toml")
	text := fmt.Sprintf("[terminal]\nid = \"T-1\"\n\n[keys]\noperator = [\"/etc/pos/keys/operator.pub\"]\nfirmware = [%s]\n", strings.Join(q, ", "))
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestTrustIsTheConfigsFirmwareKeys: with --config, the keys each slot's signature is
// checked against are posd's [keys] firmware, the list posd takes firmware under, and posd
// gets the same --config: the two lists cannot drift. Before, posboot had no --config and
// its trust was a --trust path of its own.
func TestTrustIsTheConfigsFirmwareKeys(t *testing.T) {
	signer, other := bundletest.NewKey(), bundletest.NewKey()
	s := newSite(t, signer)
	good := s.config(t, s.pub(t, "firmware.pub", signer))
	out, code := posbootArgs(t, "good", "--root "+s.root+" --config "+good+" -- --emulate")
	if code != 0 || !strings.Contains(out, fmt.Sprintf(`posd 1.0.0 slot a trial 1 args ["--config" %q "--emulate"]`, good)) {
		t.Fatalf("slot signed by the configured key: exit %d\n%s", code, out)
	}

	s = newSite(t, signer)
	wrong := s.config(t, s.pub(t, "firmware.pub", other))
	out, code = posbootArgs(t, "good", "--root "+s.root+" --config "+wrong+" -- --emulate")
	if code != ExitNoBootable || strings.Contains(out, "posd 1.0.0") {
		t.Fatalf("slot signed by a key the configuration does not name: exit %d\n%s", code, out)
	}

	// The two lists may not be given apart.
	for _, args := range []string{
		"--root " + s.root + " --config " + good + " --trust " + filepath.Join(s.keys, "firmware.pub"),
		"--root " + s.root + " --config " + good + " -- --config " + wrong,
		"--root " + s.root + " --config " + good + " -- --config=" + wrong,
	} {
		if out, code := posbootArgs(t, "good", args); code != ExitUnusable || strings.Contains(out, "posd 1.0.0") {
			t.Errorf("posboot %s: exit %d\n%s", args, code, out)
		}
	}
}

// TestConfigWithoutFirmwareKeys: a configuration without [keys] firmware boots the slots
// on their hashes alone (as without --trust), and a broken configuration stops posboot
// with ExitUnusable instead of a restart loop.
func TestConfigWithoutFirmwareKeys(t *testing.T) {
	s := newSite(t, bundletest.NewKey())
	cfg := s.config(t)
	if out, code := posbootArgs(t, "good", "--root "+s.root+" --config "+cfg); code != 0 || !strings.Contains(out, "posd 1.0.0") {
		t.Fatalf("exit %d\n%s", code, out)
	}
	if err := os.WriteFile(cfg, []byte("[keys\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, code := posbootArgs(t, "good", "--root "+s.root+" --config "+cfg); code != ExitUnusable {
		t.Fatalf("broken configuration: exit %d\n%s", code, out)
	}
}

// TestAnchorWritableByTheServiceUser is posd, compromised and running as the service's
// user, choosing the firmware: it may rewrite its configuration (a provisioned one is
// installed by posd itself), so it points [keys] firmware at a key it wrote, or rewrites
// the key file in place. posboot refuses a key file or directory that anyone but root
// (here: root or the test's user) could write. Before, posboot trusted whatever file
// --trust named.
func TestAnchorWritableByTheServiceUser(t *testing.T) {
	attacker := bundletest.NewKey()
	s := newSite(t, attacker)
	key := s.pub(t, "firmware.pub", attacker)
	cfg := s.config(t, key)
	args := "--root " + s.root + " --config " + cfg

	chmod := func(p string, m os.FileMode) {
		t.Helper()
		if err := os.Chmod(p, m); err != nil {
			t.Fatal(err)
		}
	}
	chmod(key, 0o666)
	if out, code := posbootArgs(t, "good", args); code != ExitUnusable || !strings.Contains(out, "writable by someone other than root") {
		t.Fatalf("world-writable key file: exit %d\n%s", code, out)
	}
	chmod(key, 0o644)
	chmod(s.keys, 0o775)
	if out, code := posbootArgs(t, "good", args); code != ExitUnusable || !strings.Contains(out, "writable by someone other than root") {
		t.Fatalf("group-writable key directory: exit %d\n%s", code, out)
	}
	chmod(s.keys, 0o755)
	if out, code := posbootArgs(t, "good", args); code != 0 {
		t.Fatalf("key file root's (the test user's) and read-only: exit %d\n%s", code, out)
	}
	if os.Getuid() != 0 {
		t.Skip("the owner check needs root to give the key to another user")
	}
	if err := os.Chown(key, 4242, 4242); err != nil {
		t.Fatal(err)
	}
	// main's rule: root only (anchorOwner -1).
	if err := checkAnchor(key, -1); !errors.Is(err, errAnchorWritable) {
		t.Fatalf("key file owned by uid 4242: %v", err)
	}
	if err := checkAnchor(s.keys, -1); !errors.Is(err, errAnchorWritable) {
		t.Fatalf("key directory holding a file owned by uid 4242: %v", err)
	}
	link := filepath.Join(s.keys, "link.pub")
	if err := os.Symlink(key, link); err != nil {
		t.Fatal(err)
	}
	if err := checkAnchor(link, -1); !errors.Is(err, errAnchorWritable) {
		t.Fatalf("symbolic link to a key file owned by uid 4242: %v", err)
	}
}

// TestNoBootableSlot: an empty slot root exits ExitNoBootable (which the unit does not
// restart on, TestServiceUnit) after saying so in the journal and on the display of the
// configured board, whose red LED is lit. Before, posboot showed nothing.
func TestNoBootableSlot(t *testing.T) {
	for _, size := range []string{"20x4", "16x2"} {
		t.Run(size, func(t *testing.T) {
			dir := t.TempDir()
			cfg := filepath.Join(dir, "posd.toml")
			if err := os.WriteFile(cfg, []byte("[display]\nsize = \""+size+"\"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			var b *board.Board
			open := func(c board.Config) (*board.Board, error) {
				c.Emulate, c.DisplayClock = true, gpiosim.NewClock()
				var err error
				b, err = board.Open(c)
				return b, err
			}
			var log bytes.Buffer
			e := env{
				exec: func(string, []string, []string) error { t.Fatal("exec with no slot"); return nil },
				log:  slog.New(slog.NewTextHandler(&log, nil)), show: showOn(open), anchorOwner: os.Getuid(),
			}
			cmd := newRoot(e)
			cmd.SetArgs([]string{"--root", filepath.Join(dir, "slots"), "--config", cfg})
			cmd.SetOut(io.Discard)
			err := cmd.Execute()
			if exitCode(err) != ExitNoBootable {
				t.Fatalf("exit %d: %v", exitCode(err), err)
			}
			if !strings.Contains(log.String(), "no bootable firmware slot") {
				t.Errorf("journal:\n%s", log.String())
			}
			if b == nil {
				t.Fatal("the display was not opened")
			}
			screen := b.Emulator.LCD.Text()
			if !strings.Contains(screen, "AUCUN LOGICIEL") || !strings.Contains(screen, "TECHNICIEN") {
				t.Errorf("display:\n%s", screen)
			}
			if b.Emulator.Red.Read() != gpio.High {
				t.Error("red LED off")
			}
		})
	}
}
