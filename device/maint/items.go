package maint

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/packterm/pos/device/config"
	"github.com/packterm/pos/firmware/flash"
	"github.com/packterm/pos/internal/atomicfile"
	"github.com/packterm/pos/internal/installlock"
	"github.com/packterm/pos/internal/regularfile"
	"github.com/packterm/pos/validate/ledger"
)

// Size bounds of provisioned files.
const (
	MaxConfigSize = config.MaxFileSize
	MaxKeysSize   = 64 << 10
	MaxLedgerSize = 256 << 20 // the règlement's full block is about 100 MiB
	MaxStatusSize = 16 << 20
)

// ErrRetailer is returned for a pack status list of another retailer than the terminal's.
var ErrRetailer = errors.New("maint: pack status list of another retailer")

// Site says where a terminal keeps what the link provisions.
type Site struct {
	// Dir receives ledgers (Dir/block-B.ledger), the pack status list
	// (Dir/pack-status.list), the operator key statement (Dir/operator-keys.stmt) and the
	// operator limits statement (Dir/operator-limits.stmt), as the daemon reads them.
	Dir string
	// ConfigPath is the configuration file replaced by a provisioned one ("": refused).
	ConfigPath string
	// Running is the configuration the terminal runs with: a provisioned one whose trust
	// settings (TrustSettings) differ is refused. nil: the file at ConfigPath is compared
	// with, and with none there every configuration is refused.
	Running *config.Config
	// OperatorKeys are the anchor operator key files (or directories) the terminal was
	// flashed with ([keys] operator): the trust in force until an operator key statement
	// is installed (ledger.LoadTrust). A file not there is skipped; none at all, and no
	// statement, refuses everything signed (the link never brings the first keys).
	OperatorKeys []string
	// FirmwareKeys are the anchor firmware keys ([keys] firmware) and SlotRoot the slot
	// root, where a firmware key statement is installed; NewServer sets them when the
	// terminal takes firmware (else firmware key statements are refused).
	FirmwareKeys []string
	SlotRoot     string
	// Retailer is this terminal's retailer: a status list for another is refused.
	Retailer uint32
	// Terminal is this terminal's id: a limits statement for another is refused.
	Terminal string
}

// Items are the provisioning destinations of s.
func Items(s Site) map[flash.Kind]flash.Item {
	items := map[flash.Kind]flash.Item{
		flash.Ledger: {MaxSize: MaxLedgerSize, Install: s.installLedger},
		flash.Status: {MaxSize: MaxStatusSize, Install: s.installStatus},
		flash.Keys:   {MaxSize: MaxKeysSize, Install: s.installKeys},
	}
	if s.ConfigPath != "" {
		// Install (not the link's own Path and Verify): the check and the rename under the
		// configuration directory's install lock, as every install.
		items[flash.Config] = flash.Item{Path: s.ConfigPath, MaxSize: MaxConfigSize, Verify: s.verifyConfig, Install: s.installConfig}
	}
	return items
}

// OperatorStatement is where s keeps the installed operator key statement.
func (s Site) OperatorStatement() string { return filepath.Join(s.Dir, ledger.KeyStatementFile) }

// trust is the operator trust in force: the installed statement, else the anchors.
func (s Site) trust() (*ledger.TrustStore, error) {
	var there []string
	for _, k := range s.OperatorKeys {
		if _, err := os.Stat(k); err == nil || !errors.Is(err, fs.ErrNotExist) {
			there = append(there, k)
		}
	}
	t, err := ledger.LoadTrust(s.OperatorStatement(), there...)
	if err != nil {
		return nil, fmt.Errorf("maint: operator keys: %w", err)
	}
	if t.Len() == 0 {
		return nil, fmt.Errorf("maint: %w", ErrNoTrust)
	}
	return t, nil
}

func (s Site) installLedger(_ context.Context, path string) (string, error) {
	t, err := s.trust()
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return "", fmt.Errorf("maint: %w", err)
	}
	res, err := ledger.Install(s.Dir, path, t)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("ledger installed: block %d, version %d%s", res.Block, res.Version, previous(res)), nil
}

func (s Site) installStatus(_ context.Context, path string) (string, error) {
	t, err := s.trust()
	if err != nil {
		return "", err
	}
	st, err := ledger.LoadStatus(path, t)
	if err != nil {
		return "", err
	}
	if st.Retailer != s.Retailer {
		return "", fmt.Errorf("maint: list for retailer %d, this terminal is retailer %d: %w", st.Retailer, s.Retailer, ErrRetailer)
	}
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return "", fmt.Errorf("maint: %w", err)
	}
	res, err := ledger.InstallStatus(s.Dir, path, t, s.Retailer)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("status installed: version %d%s", res.Version, previous(res)), nil
}

func previous(res ledger.Installed) string {
	if !res.HadPrevious {
		return " (none before)"
	}
	return fmt.Sprintf(" (was %d)", res.Previous)
}

// installConfig installs the received configuration at ConfigPath: a copy is written
// next to it and synced, then, under the directory's install lock (installlock), the
// copy is verified (verifyConfig: what posd would run with, the running trust settings
// kept) and renamed over ConfigPath, and the directory synced. On any failure the
// installed configuration stays as it was.
func (s Site) installConfig(ctx context.Context, path string) (string, error) {
	data, err := regularfile.ReadFile(path, MaxConfigSize)
	if err != nil {
		return "", fmt.Errorf("maint: config: %w", err)
	}
	dir := filepath.Dir(s.ConfigPath)
	tmp, err := atomicfile.Stage(s.ConfigPath, 0o644, func(w io.Writer) error { _, err := w.Write(data); return err })
	if err != nil {
		return "", fmt.Errorf("maint: config: %w", err)
	}
	defer os.Remove(tmp) // gone once renamed
	err = installlock.Do(ctx, dir, func() error {
		if err := s.verifyConfig(ctx, tmp); err != nil {
			return err
		}
		if err := atomicfile.Commit(tmp, s.ConfigPath); err != nil {
			return fmt.Errorf("maint: config: %w", err)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%v installed (%d bytes)", flash.Config, len(data)), nil
}
