package ledger

import (
	"bufio"
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/packterm/pos/internal/installlock/installtest"
)

// installKind is one install path raced by TestConcurrentInstallsNeverRollBack: its
// sources by version, how a destination directory starts (version 3 installed) and
// what it holds.
type installKind struct {
	name      string
	src       map[uint64]string
	v3        []byte // version 3, installed when a trial starts
	installed string // the installed file's name in the directory
	install   func(dir, src string, trust *TrustStore) (uint64, error)
	version   func(path string, trust *TrustStore) (uint64, error)
}

// installKinds are the ledger, the pack status list and the operator key statement, each
// made in versions 3, 4 and 5 under srcDir.
func installKinds(t testing.TB, srcDir string, priv ed25519.PrivateKey) []installKind {
	pub := priv.Public().(ed25519.PublicKey)
	b := newTestBlock(t, 42, 2, 21)
	kinds := installKindsFuncs()
	for i := range kinds {
		k := &kinds[i]
		switch k.name {
		case "ledger":
			k.installed = FileName(42)
			k.version = func(p string, trust *TrustStore) (uint64, error) {
				in, err := VerifyFile(p, trust)
				if err != nil {
					return 0, err
				}
				return in.Version, nil
			}
		case "status":
			k.installed = StatusFileName
			k.version = func(p string, trust *TrustStore) (uint64, error) {
				s, err := LoadStatus(p, trust)
				if err != nil {
					return 0, err
				}
				return s.Version, nil
			}
		case "keys":
			k.installed = KeyStatementFile
			k.version = func(p string, _ *TrustStore) (uint64, error) {
				s, err := LoadKeyStatement(p)
				if err != nil {
					return 0, err
				}
				return s.Version(), nil
			}
		}
	}
	for i := range kinds {
		k := &kinds[i]
		k.src = map[uint64]string{}
		for _, v := range []uint64{3, 4, 5} {
			var data []byte
			var err error
			switch k.name {
			case "ledger":
				h := b.h
				h.Version = v
				data, err = Marshal(h, b.entries, priv)
			case "status":
				s := testStatus()
				s.Version = v
				data, err = MarshalStatus(s, priv)
			case "keys":
				data, err = SignKeyStatement(v, []ed25519.PublicKey{pub}, priv)
			}
			if err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(srcDir, fmt.Sprintf("%s-v%d", k.name, v))
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
			k.src[v] = p
			if v == 3 {
				k.v3 = data
			}
		}
	}
	return kinds
}

// TestConcurrentInstallsNeverRollBack races installs of version 4 and version 5 into a
// directory holding version 3: two goroutines of this process and a second process (this
// test binary run as an installer, as posctl on the board would be beside posd). In every
// one of 1,000 trials (status list; 500 for the ledger and the key statement, which share
// its code or are slower; a fifth of that with -short or -race) the installed version
// must be the highest one an install reported installed: an install that read the
// version floor before another's rename and renamed after it would roll it back (issue
// 30: 3 trials of 340 did; before the install lock this test counted 42 of 1,000, 6 of
// 500 and 109 of 500).
func TestConcurrentInstallsNeverRollBack(t *testing.T) {
	pub, priv := testKey(t)
	trust := NewTrustStore(pub)
	srcDir := t.TempDir()
	kinds := installKinds(t, srcDir, priv)
	other := startInstaller(t, pub)
	trials := map[string]int{"status": 1000, "ledger": 500, "keys": 500}
	if testing.Short() || raceEnabled {
		trials = map[string]int{"status": 200, "ledger": 100, "keys": 100}
	}
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			installtest.Run(t, trials[k.name], installtest.Race{
				// v5 and v4 twice in goroutines, and the other process installs v4 or v5.
				Versions: func(i int) []uint64 { return []uint64{uint64(4 + i%2), 4, 5, 4} },
				Setup: func(dir string) error {
					return os.WriteFile(filepath.Join(dir, k.installed), k.v3, 0o644)
				},
				Install: func(j int, dir string, v uint64) error {
					if j == 0 && other != nil {
						return other.install(k.name, dir, k.src[v])
					}
					_, err := k.install(dir, k.src[v], trust)
					return err
				},
				Refused: func(err error) bool {
					return errors.Is(err, ErrOlderVersion) || strings.Contains(err.Error(), ErrOlderVersion.Error())
				},
				Installed: func(dir string) (uint64, error) { return k.version(filepath.Join(dir, k.installed), trust) },
			})
		})
	}
}

// installer is the second process of TestConcurrentInstallsNeverRollBack.
type installer struct {
	mu  sync.Mutex
	in  io.Writer
	out *bufio.Reader
}

func startInstaller(t *testing.T, pub ed25519.PublicKey) *installer {
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperInstaller$")
	cmd.Env = append(os.Environ(), "LEDGER_INSTALLER_KEY="+hex.EncodeToString(pub))
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		if errors.Is(err, syscall.ENOEXEC) {
			// An ARM test binary run by qemu-user (CI) cannot exec itself: the second
			// process's installs run as a third goroutine instead.
			t.Logf("no second process here (%v): its installs run in this one", err)
			return nil
		}
		t.Fatal(err)
	}
	t.Cleanup(func() {
		in.Close()
		cmd.Wait()
	})
	return &installer{in: in, out: bufio.NewReader(out)}
}

// install asks the other process to install src into dir and waits for its answer.
func (p *installer) install(kind, dir, src string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, err := fmt.Fprintf(p.in, "%s\t%s\t%s\n", kind, dir, src); err != nil {
		return err
	}
	line, err := p.out.ReadString('\n')
	if err != nil {
		return fmt.Errorf("installer: %w", err)
	}
	if line = strings.TrimSuffix(line, "\n"); line != "ok" {
		return errors.New(line)
	}
	return nil
}

// TestHelperInstaller is the second process of TestConcurrentInstallsNeverRollBack: it
// reads "kind\tdir\tsrc" lines and answers "ok" or the error.
func TestHelperInstaller(t *testing.T) {
	key := os.Getenv("LEDGER_INSTALLER_KEY")
	if key == "" {
		t.Skip("helper process only")
	}
	pub, _ := hex.DecodeString(key)
	trust := NewTrustStore(ed25519.PublicKey(pub))
	kinds := map[string]installKind{}
	for _, k := range installKindsFuncs() {
		kinds[k.name] = k
	}
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		f := strings.Split(in.Text(), "\t")
		answer := "ok"
		if k, ok := kinds[f[0]]; !ok || len(f) != 3 {
			answer = "bad request"
		} else if _, err := k.install(f[1], f[2], trust); err != nil {
			answer = strings.ReplaceAll(err.Error(), "\n", " ")
		}
		fmt.Println(answer)
	}
	os.Exit(0)
}

// installKindsFuncs are the install paths, their install functions only (what the
// second process needs).
func installKindsFuncs() []installKind {
	return []installKind{
		{name: "ledger", install: func(dir, src string, trust *TrustStore) (uint64, error) {
			res, err := Install(dir, src, trust)
			return res.Version, err
		}},
		{name: "status", install: func(dir, src string, trust *TrustStore) (uint64, error) {
			res, err := InstallStatus(dir, src, trust, 7001)
			return res.Version, err
		}},
		{name: "keys", install: func(dir, src string, trust *TrustStore) (uint64, error) {
			res, err := InstallKeyStatement(filepath.Join(dir, KeyStatementFile), src, trust)
			return res.Version, err
		}},
	}
}
