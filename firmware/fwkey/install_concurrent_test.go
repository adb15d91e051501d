package fwkey

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/packterm/pos/internal/installlock/installtest"
)

// TestInstallStatementConcurrent: statements of versions 4 and 5 installed at once over
// version 3 never leave version 4 once 5 was reported installed (the installed version
// is read and the file renamed under the slot root's install lock).
func TestInstallStatementConcurrent(t *testing.T) {
	pub, priv, _ := ed25519.GenerateKey(nil)
	trust := NewTrustStore(pub)
	src := map[uint64]string{}
	for _, v := range []uint64{3, 4, 5} {
		src[v] = filepath.Join(t.TempDir(), fmt.Sprintf("v%d.stmt", v))
		if err := os.WriteFile(src[v], sign(t, v, priv, pub), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	v3, _ := os.ReadFile(src[3])
	trials := 300
	if testing.Short() {
		trials = 60
	}
	installtest.Run(t, trials, installtest.Race{
		Versions: func(int) []uint64 { return []uint64{4, 5, 4} },
		Setup:    func(dir string) error { return os.WriteFile(filepath.Join(dir, StatementFile), v3, 0o644) },
		Install: func(_ int, dir string, v uint64) error {
			_, err := InstallStatement(filepath.Join(dir, StatementFile), src[v], trust)
			return err
		},
		Refused: func(err error) bool { return errors.Is(err, ErrOlderVersion) },
		Installed: func(dir string) (uint64, error) {
			s, err := LoadStatement(filepath.Join(dir, StatementFile))
			if err != nil {
				return 0, err
			}
			return s.Version(), nil
		},
	})
}
