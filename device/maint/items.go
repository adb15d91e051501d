package maint

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/packterm/pos/device/config"
	"github.com/packterm/pos/firmware/flash"
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
	// Dir receives ledgers (Dir/block-B.ledger) and the pack status list
	// (Dir/pack-status.list), as the daemon's LoadData reads them.
	Dir string
	// ConfigPath is the configuration file replaced by a provisioned one ("": refused).
	ConfigPath string
	// KeysPath is the operator key file replaced by provisioned keys ("": refused).
	KeysPath string
	// OperatorKeys are the operator key files (or directories) ledgers and status lists
	// are verified against, read again at each install (so keys provisioned just before
	// count; a file not there yet is skipped, none at all refuses). KeysPath is used when
	// empty.
	OperatorKeys []string
	// Retailer is this terminal's retailer: a status list for another is refused.
	Retailer uint32
}

// Items are the provisioning destinations of s.
func Items(s Site) map[flash.Kind]flash.Item {
	items := map[flash.Kind]flash.Item{
		flash.Ledger: {MaxSize: MaxLedgerSize, Install: s.installLedger},
		flash.Status: {MaxSize: MaxStatusSize, Install: s.installStatus},
	}
	if s.ConfigPath != "" {
		items[flash.Config] = flash.Item{Path: s.ConfigPath, MaxSize: MaxConfigSize, Verify: VerifyConfig}
	}
	if s.KeysPath != "" {
		items[flash.Keys] = flash.Item{Path: s.KeysPath, MaxSize: MaxKeysSize, Verify: VerifyKeys}
	}
	return items
}

// VerifyConfig accepts a configuration posd would run with.
func VerifyConfig(_ context.Context, path string) error {
	c, err := config.Load(path)
	if err == nil {
		err = c.Validate()
	}
	return err
}

// VerifyKeys accepts a file of operator (ledger) public keys.
func VerifyKeys(_ context.Context, path string) error {
	_, err := ledger.LoadTrustStore(path)
	return err
}

func (s Site) trust() (*ledger.TrustStore, error) {
	keys := s.OperatorKeys
	if len(keys) == 0 && s.KeysPath != "" {
		keys = []string{s.KeysPath}
	}
	var there []string
	for _, k := range keys {
		if _, err := os.Stat(k); err == nil || !errors.Is(err, fs.ErrNotExist) {
			there = append(there, k)
		}
	}
	if len(there) == 0 {
		return nil, fmt.Errorf("maint: no operator keys to verify against: provision them first")
	}
	t, err := ledger.LoadTrustStore(there...)
	if err != nil {
		return nil, fmt.Errorf("maint: operator keys: %w", err)
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
