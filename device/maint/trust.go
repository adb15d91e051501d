package maint

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/packterm/pos/device/config"
	"github.com/packterm/pos/firmware/fwkey"
	"github.com/packterm/pos/internal/regularfile"
	"github.com/packterm/pos/validate/ledger"
)

// The technician token opens the link; it never changes what the terminal trusts. Trust
// changes only by a statement signed with a key trusted now (docs/ledger.md, "Trust").
var (
	// ErrBareKey: a key file sent as the Keys item.
	ErrBareKey = errors.New("maint: a bare key file changes no trust: operator keys change only by a statement signed " +
		"by a key this terminal trusts; make one with `posctl keys rotate --key operator.key --add new.pub --out keys.stmt` " +
		"(firmware keys: `posctl keys rotate --firmware --key firmware.key …`) and send it with `posctl provision --keys keys.stmt`")
	// ErrNotStatement: the Keys item is neither a key statement nor a key file.
	ErrNotStatement = errors.New("maint: not a key statement (posctl keys rotate makes one)")
	// ErrNoTrust: the terminal trusts no operator key; the link never brings the first.
	ErrNoTrust = errors.New("this terminal trusts no operator key: its first keys come with its image " +
		"([keys] operator) or a signed firmware bundle, never over the maintenance link")
	// ErrTrustSettings: a provisioned configuration changes a trust setting.
	ErrTrustSettings = errors.New("maint: a provisioned configuration may not change what the terminal trusts")
	// ErrNoFirmware: a firmware key statement for a terminal that takes no firmware.
	ErrNoFirmware = errors.New("maint: this terminal takes no firmware, nor firmware key statements")
)

// installKeys installs an operator or firmware key statement, verified against the trust
// in force; a bare key file is refused saying how to rotate.
func (s Site) installKeys(_ context.Context, path string) (string, error) {
	text, err := regularfile.ReadFile(path, MaxKeysSize)
	if err != nil {
		return "", fmt.Errorf("maint: keys: %w", err)
	}
	first, _, _ := strings.Cut(string(text[:min(len(text), 64)]), " ")
	switch first {
	case ledger.KeyStatementType:
		t, err := s.trust()
		if err != nil {
			return "", err
		}
		if err := os.MkdirAll(s.Dir, 0o700); err != nil {
			return "", fmt.Errorf("maint: %w", err)
		}
		res, err := ledger.InstallKeyStatement(s.OperatorStatement(), path, t)
		if err != nil {
			return "", err
		}
		st, err := ledger.LoadKeyStatement(s.OperatorStatement())
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("operator keys installed: statement version %d%s, keys %v, signed by %v",
			res.Version, previous(res), st.IDs(), st.Signer()), nil
	case ledger.LimitsStatementType:
		return s.installLimits(path)
	case fwkey.StatementType:
		return s.installFirmwareKeys(path)
	case ledger.PublicKeyType, ledger.PrivateKeyType, fwkey.PublicType, fwkey.PrivateType:
		return "", ErrBareKey
	}
	return "", fmt.Errorf("%w: first word %.40q", ErrNotStatement, first)
}

func (s Site) installFirmwareKeys(path string) (string, error) {
	if s.SlotRoot == "" || len(s.FirmwareKeys) == 0 {
		return "", ErrNoFirmware
	}
	stmt := filepath.Join(s.SlotRoot, fwkey.StatementFile)
	t, err := fwkey.LoadTrust(stmt, s.FirmwareKeys...)
	if err != nil {
		return "", fmt.Errorf("maint: firmware keys: %w", err)
	}
	res, err := fwkey.InstallStatement(stmt, path, t)
	if err != nil {
		return "", err
	}
	was := " (none before)"
	if res.HadPrevious {
		was = fmt.Sprintf(" (was %d)", res.Previous)
	}
	return fmt.Sprintf("firmware keys installed: statement version %d%s; in force at the next start", res.Version, was), nil
}

// TrustSettings are the configuration's settings that say what the terminal trusts or
// where it keeps what it trusts: a configuration provisioned over the link must keep
// them as they are (they change with the terminal's image, or the firmware).
func TrustSettings(c *config.Config) map[string]string {
	return map[string]string{
		"keys.operator":           strings.Join(c.Keys.Operator, "\x00"),
		"keys.firmware":           strings.Join(c.Keys.Firmware, "\x00"),
		"technician.token_sha256": c.Technician.TokenSHA256,
		"terminal.data_dir":       c.DataDir,
		"terminal.retailer":       c.RetailerID,
	}
}

// verifyConfig accepts a configuration posd would run with whose trust settings and
// operator settings (OperatorSettings) are those of the running one.
func (s Site) verifyConfig(_ context.Context, path string) error {
	c, err := config.Load(path)
	if err != nil {
		return err
	}
	if err := c.Validate(); err != nil {
		return err
	}
	running := s.Running
	if running == nil {
		c, err := config.Load(s.ConfigPath)
		if err != nil {
			return fmt.Errorf("%w: no running configuration to compare with: %w", ErrTrustSettings, err)
		}
		running = c
	}
	was, now := TrustSettings(running), TrustSettings(c)
	var changed []string
	for k, v := range was {
		if now[k] != v {
			changed = append(changed, k)
		}
	}
	if len(changed) > 0 {
		slices.Sort(changed)
		return fmt.Errorf("%w: it changes %s; keep the running values (operator and firmware keys change by "+
			"`posctl keys rotate` statements, the rest with the terminal's image)", ErrTrustSettings, strings.Join(changed, ", "))
	}
	return checkOperatorSettings(running, c) // operator.go
}
