package journal

import (
	"bufio"
	"bytes"
	"crypto/ed25519"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/packterm/pos/validate/ledger"
)

var errKill = errors.New("killed")

// firstStartSteps are the steps of a first start with the device key made on the
// terminal, in their order: the files are staged, journal.db renamed into place before
// the key, the head markers last.
var firstStartSteps = []string{
	"stage device.key", "stage device.pub", "stage journal.db", "commit journal.db",
	"rename journal.db", "sync directory after journal.db",
	"rename device.key", "rename device.pub", "sync directory after device.pub",
	"boot", "head markers",
}

// terminalDirs makes a data directory as posd's: journal/, and state/ with the head
// marker copy and a done.seq witness (the journal's caller writes it after a record).
func terminalDirs(t *testing.T) (jdir string, o Options) {
	t.Helper()
	data := t.TempDir()
	jdir = filepath.Join(data, "journal")
	state := filepath.Join(data, "state")
	if err := os.MkdirAll(state, 0o700); err != nil {
		t.Fatal(err)
	}
	done := filepath.Join(state, "done.seq")
	o = Options{Terminal: "T0042", HeadCopies: []string{filepath.Join(state, HeadFile)},
		Witness: func() []Evidence {
			if _, err := os.Stat(done); err == nil {
				return []Evidence{{What: "state/done.seq"}}
			}
			return nil
		}}
	return jdir, o
}

// TestFirstStartCutAtEveryStep kills a terminal's very first start before each of its
// steps in turn (the step hook stops Open there and leaves what was written, as kill -9
// would), and also with each staged file left empty or half written. At every cut either
// journal.db is in place or nothing the evidence counts is there, and the next start is
// a first start again: a healthy journal, its key in place, the staged files gone, the
// markers written, a payout taken; and that journal is then protected (removed, it is
// refused). Before the key was staged, a cut after device.key was written and before
// journal.db refused the terminal for good ("journal.db missing on a terminal that had a
// journal (device.key)").
func TestFirstStartCutAtEveryStep(t *testing.T) {
	jdir, o := terminalDirs(t)
	var steps []string
	o.cutAt = func(s string) error { steps = append(steps, s); return nil }
	j, err := Open(jdir, o)
	if err != nil || j.Health() != nil {
		t.Fatalf("first start: %v %v", err, j.Health())
	}
	j.Close()
	if !slices.Equal(steps, firstStartSteps) {
		t.Fatalf("steps %q\nwant %q", steps, firstStartSteps)
	}
	cases := 0
	for k, step := range firstStartSteps {
		for _, variant := range []string{"as left", "staged files empty", "staged files half written"} {
			t.Run(fmt.Sprintf("%02d %s/%s", k+1, step, variant), func(t *testing.T) {
				jdir, o := terminalDirs(t)
				cut := o
				cut.cutAt = func(s string) error {
					if s == step {
						return errKill
					}
					return nil
				}
				if j, err := Open(jdir, cut); !errors.Is(err, errKill) {
					t.Fatalf("cut before %q: %v %v", step, err, j)
				}
				if variant != "as left" && !truncateStaged(t, jdir, variant == "staged files half written") {
					t.Skip("no staged file left at this step")
				}
				if _, err := os.Stat(filepath.Join(jdir, DBFile)); errors.Is(err, fs.ErrNotExist) {
					if ev := fileEvidence(jdir, o); len(ev) > 0 {
						t.Fatalf("evidence of a journal without journal.db: %s", evidenceNames(ev))
					}
				}
				restartedAsFirstStart(t, jdir, o)
				cases++
			})
		}
	}
	t.Logf("%d cut states, each restarted as a first start", cases)
}

// truncateStaged empties (half: halves) every staged file of jdir; false when there is
// none.
func truncateStaged(t *testing.T, jdir string, half bool) bool {
	t.Helper()
	n := 0
	for _, name := range stagedFiles {
		p := filepath.Join(jdir, name)
		st, err := os.Stat(p)
		if err != nil {
			continue
		}
		size := int64(0)
		if half {
			size = st.Size() / 2
		}
		if err := os.Truncate(p, size); err != nil {
			t.Fatal(err)
		}
		n++
	}
	return n > 0
}

// restartedAsFirstStart opens jdir after a first start cut short and checks that it is
// one: healthy and empty, its key and markers in place, no staged file left, a payout
// taken; then that the journal it made is refused once removed.
func restartedAsFirstStart(t *testing.T, jdir string, o Options) {
	t.Helper()
	j, err := Open(jdir, o)
	if err != nil {
		t.Fatalf("restart: %v", err)
	}
	if err := j.Health(); err != nil {
		j.Close()
		t.Fatalf("restart after a cut first start refused: %v", err)
	}
	if seq, _ := j.Head(); seq != 0 {
		t.Errorf("head %d on a first start", seq)
	}
	for _, name := range stagedFiles {
		if _, err := os.Lstat(filepath.Join(jdir, name)); err == nil {
			t.Errorf("%s left", name)
		}
	}
	priv, err := ledger.LoadPrivateKey(filepath.Join(jdir, DeviceKeyFile))
	if err != nil {
		t.Fatal(err)
	}
	pub, err := ledger.LoadPublicKey(filepath.Join(jdir, DevicePubFile))
	if err != nil || !bytes.Equal(pub, priv.Public().(ed25519.PublicKey)) || !bytes.Equal(pub, j.PublicKey()) {
		t.Fatalf("device.pub %v does not match the key in use", err)
	}
	for _, p := range markerPaths(jdir, o) {
		if h, err := ParseHead(mustRead(t, p)); err != nil || h.Seq != 0 {
			t.Errorf("marker %s: %+v %v", p, h, err)
		}
	}
	if _, err := j.Append(payoutN(1)); err != nil {
		t.Fatal(err)
	}
	if _, err := j.Verify(); err != nil {
		t.Fatal(err)
	}
	j.Close()
	ro, err := Open(jdir, Options{ReadOnly: true, PublicKey: pub})
	if err != nil || ro.Health() != nil {
		t.Fatalf("read-only open with the device key: %v %v", err, ro.Health())
	}
	ro.Close()
	if err := os.Remove(filepath.Join(jdir, DBFile)); err != nil {
		t.Fatal(err)
	}
	j, err = Open(jdir, o)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if !errors.Is(j.Health(), ErrMissing) {
		t.Fatalf("the journal made after the cut, removed: %v, want refused", j.Health())
	}
}

// TestRetailerFakesUnfinishedFirstStart: the retailer (root) makes a journal that paid
// look like a first start cut short: journal.db renamed to journal.db.new, device.key and
// device.pub to their staged names, the head marker beside them removed. The marker copy
// in state/ still refuses it, and so does posd's witness with the copy gone too; the
// refused open leaves the files as found. Only with every sign gone is it a first start,
// as without the staged names (docs/journal.md: the fleet then sees the fork).
func TestRetailerFakesUnfinishedFirstStart(t *testing.T) {
	for _, tc := range []struct {
		name   string
		remove []string // more to remove, relative to the data directory
		want   error
	}{
		{"marker copy left", nil, ErrMissing},
		{"witness left", []string{"state/" + HeadFile}, ErrMissing},
		{"device.key kept", []string{"state/" + HeadFile, "state/done.seq", "keep-key"}, ErrMissing},
		{"every sign gone", []string{"state/" + HeadFile, "state/done.seq"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			jdir, o := terminalDirs(t)
			data := filepath.Dir(jdir)
			j, err := Open(jdir, o)
			if err != nil {
				t.Fatal(err)
			}
			for i := range 3 {
				if _, err := j.Append(payoutN(i)); err != nil {
					t.Fatal(err)
				}
			}
			j.Close()
			if err := os.WriteFile(filepath.Join(data, "state", "done.seq"), []byte("3\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			keepKey := slices.Contains(tc.remove, "keep-key")
			for _, n := range []string{DBFile, DeviceKeyFile, DevicePubFile} {
				if keepKey && n != DBFile {
					continue
				}
				p := filepath.Join(jdir, n)
				if err := os.Rename(p, p+stagedSuffix); err != nil {
					t.Fatal(err)
				}
			}
			must := func(err error) {
				if err != nil && !errors.Is(err, fs.ErrNotExist) {
					t.Fatal(err)
				}
			}
			must(os.Remove(filepath.Join(jdir, HeadFile)))
			for _, r := range tc.remove {
				if r != "keep-key" {
					must(os.Remove(filepath.Join(data, r)))
				}
			}
			before := listDir(t, jdir)
			j, err = Open(jdir, o)
			if err != nil {
				t.Fatal(err)
			}
			defer j.Close()
			if tc.want == nil {
				if j.Health() != nil {
					t.Fatalf("every sign gone: %v", j.Health())
				}
				return
			}
			if !errors.Is(j.Health(), tc.want) {
				t.Fatalf("health %v, want %v: a journal that paid was taken for a first start cut short", j.Health(), tc.want)
			}
			if _, err := j.Append(payoutN(0)); !errors.Is(err, ErrReadOnly) {
				t.Errorf("payout again: %v", err)
			}
			if after := listDir(t, jdir); after != before {
				t.Errorf("the refused open changed the journal directory: %s -> %s", before, after)
			}
			t.Logf("refused: %v", j.Health())
		})
	}
}

// TestStagedKeyOfAJournalAdopted: a journal whose device.key was moved to its staged name
// (as a cut after journal.db's rename leaves it) opens with that key, healthy: a staged key
// is taken only where device.key is missing, and a key that did not sign the records
// would be refused as any other.
func TestStagedKeyOfAJournalAdopted(t *testing.T) {
	f := newFixture(t)
	f.append(t, payoutN(1))
	pub := f.j.PublicKey()
	f.j.Close()
	p := filepath.Join(f.dir, DeviceKeyFile)
	if err := os.Rename(p, p+stagedSuffix); err != nil {
		t.Fatal(err)
	}
	f.reopen(t)
	if err := f.j.Health(); err != nil || !bytes.Equal(f.j.PublicKey(), pub) {
		t.Fatalf("%v, key changed %v", err, !bytes.Equal(f.j.PublicKey(), pub))
	}
	f.j.Close()

	// Another key staged: its signatures are not the records'.
	_, evil, _ := ed25519.GenerateKey(nil)
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(f.dir, DevicePubFile))
	if err := os.WriteFile(p+stagedSuffix, ledger.MarshalPrivateKey(evil, "evil"), 0o600); err != nil {
		t.Fatal(err)
	}
	f.reopen(t)
	if err := f.j.Health(); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "key") {
		t.Fatalf("records under another staged key: %v", err)
	}
}

// firstStartChildEnv, when set, makes TestFirstStartChild the child of
// TestFirstStartCrashKill: it opens a new journal in that data directory.
const firstStartChildEnv = "JOURNAL_FIRSTSTART_CHILD_DIR"

// childOptions are the options of the first-start child's journal in data.
func childOptions(data string) (string, Options) {
	return filepath.Join(data, "journal"), Options{Terminal: "T0042", HeadCopies: []string{filepath.Join(data, "state", HeadFile)}}
}

// TestFirstStartChild is the child of TestFirstStartCrashKill (skipped otherwise): it
// says "opening", opens (a first start), says how long that took, and ends.
func TestFirstStartChild(t *testing.T) {
	data := os.Getenv(firstStartChildEnv)
	if data == "" {
		t.Skip("child of TestFirstStartCrashKill")
	}
	jdir, o := childOptions(data)
	os.Stdout.WriteString("opening\n")
	start := time.Now()
	j, err := Open(jdir, o)
	if err != nil || j.Health() != nil {
		fmt.Fprintf(os.Stderr, "open: %v %v\n", err, j.Health())
		os.Exit(2)
	}
	fmt.Fprintf(os.Stdout, "opened %d\n", time.Since(start).Microseconds())
	j.Close()
	os.Exit(0)
}

// TestFirstStartCrashKill kills (SIGKILL) a child process during its very first start, at
// a random moment of it, each time in a new data directory, and restarts there: the
// restart must be a first start, healthy, never refused. (posd's crash test once hit the
// refusal: device.key made, then killed before journal.db.)
func TestFirstStartCrashKill(t *testing.T) {
	if os.Getenv(firstStartChildEnv) != "" {
		t.Skip("in the child")
	}
	runs := 40
	if testing.Short() {
		runs = 10
	}
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 29))
	window := 20 * time.Millisecond // adapted to how long a first start takes here
	states := map[string]int{}
	for i := range runs {
		data := t.TempDir()
		if err := os.MkdirAll(filepath.Join(data, "state"), 0o700); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(os.Args[0], "-test.run=^TestFirstStartChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), firstStartChildEnv+"="+data)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			if errors.Is(err, syscall.ENOEXEC) && i == 0 {
				t.Skipf("cannot run the test binary as a child here: %v", err)
			}
			t.Fatal(err)
		}
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			l := sc.Text()
			if l == "opening" {
				time.AfterFunc(time.Duration(rng.Int64N(int64(window))), func() { cmd.Process.Signal(syscall.SIGKILL) })
			}
			if us, ok := strings.CutPrefix(l, "opened "); ok {
				if n, err := strconv.Atoi(us); err == nil {
					window = time.Duration(n) * time.Microsecond * 12 / 10
				}
			}
		}
		err = cmd.Wait()
		var ee *exec.ExitError
		if err != nil && (!errors.As(err, &ee) || !ee.Sys().(syscall.WaitStatus).Signaled()) {
			t.Fatalf("run %d: child: %v: %s", i, err, stderr.Bytes())
		}
		jdir, o := childOptions(data)
		states[leftState(jdir, o)]++
		j, err := Open(jdir, o)
		if err != nil {
			t.Fatalf("run %d: restart: %v", i, err)
		}
		if err := j.Health(); err != nil {
			j.Close()
			t.Fatalf("run %d: restart after a kill during the first start: %v", i, err)
		}
		if _, err := j.Append(payoutN(1)); err != nil {
			t.Fatal(err)
		}
		j.Close()
	}
	t.Logf("%d kills during a first start (window %v); states left: %v", runs, window, states)
}

// leftState names what a kill during a first start left in jdir.
func leftState(jdir string, o Options) string {
	has := func(p string) bool { _, err := os.Lstat(p); return err == nil }
	staged := false
	for _, n := range stagedFiles {
		staged = staged || has(filepath.Join(jdir, n))
	}
	switch {
	case !has(filepath.Join(jdir, DBFile)) && staged:
		return "staged files only"
	case !has(filepath.Join(jdir, DBFile)):
		return "nothing"
	case !has(filepath.Join(jdir, DeviceKeyFile)) || !has(filepath.Join(jdir, DevicePubFile)):
		return "journal.db, key staged"
	case !has(o.HeadCopies[0]):
		return "journal, no marker copy"
	}
	return "whole"
}
