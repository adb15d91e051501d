package maint

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"path/filepath"
	"strings"

	"github.com/jonboulle/clockwork"

	"github.com/packterm/pos/firmware/bundle"
	"github.com/packterm/pos/firmware/flash"
	"github.com/packterm/pos/firmware/flash/flashserial"
	"github.com/packterm/pos/firmware/fwkey"
	"github.com/packterm/pos/firmware/slot"
)

// ErrNoToken is returned by NewServer when no technician token hash is configured: the
// link then answers nobody, so posd does not listen at all (fail closed).
var ErrNoToken = errors.New("maint: no technician token_sha256 configured: maintenance link off")

// DefaultBaud is the maintenance serial port's rate.
const DefaultBaud = 115200

// Options describe a terminal's maintenance link.
type Options struct {
	// TokenSHA256 is the hex SHA-256 of the technician token ([technician] token_sha256).
	TokenSHA256 string
	// FirmwareKeys are the anchor firmware public keys ([keys] firmware); none: firmware
	// bundles are refused. The trust in force is SlotRoot/firmware-keys.stmt once a
	// firmware key statement is installed there (fwkey.LoadTrust), read at start.
	FirmwareKeys []string
	// SlotRoot is the A/B slot root firmware installs into ("": firmware refused), for
	// Target only.
	SlotRoot string
	Target   bundle.Target
	// SpoolDir keeps partial transfers for resume.
	SpoolDir string
	// Site is where provisioned files go.
	Site        Site
	OnInstalled func(kind flash.Kind, info string)
	Clock       clockwork.Clock
	Logger      *slog.Logger
}

// NewServer is the flash.Server of o: the technician token, firmware into the slots when
// firmware keys and a slot root are given, provisioning into o.Site.
func NewServer(o Options) (*flash.Server, error) {
	if o.TokenSHA256 == "" {
		return nil, ErrNoToken
	}
	h, err := hex.DecodeString(o.TokenSHA256)
	if err != nil || len(h) != sha256.Size {
		return nil, fmt.Errorf("maint: technician token_sha256: want 64 hex digits")
	}
	srv := &flash.Server{TokenHash: [32]byte(h), SpoolDir: o.SpoolDir,
		OnInstalled: o.OnInstalled, Clock: o.Clock, Logger: o.Logger}
	site := o.Site
	if len(o.FirmwareKeys) > 0 && o.SlotRoot != "" {
		site.FirmwareKeys, site.SlotRoot = o.FirmwareKeys, o.SlotRoot
		trust, err := fwkey.LoadTrust(filepath.Join(o.SlotRoot, fwkey.StatementFile), o.FirmwareKeys...)
		if err != nil {
			return nil, fmt.Errorf("maint: firmware keys: %w", err)
		}
		t := o.Target
		store, err := slot.Open(o.SlotRoot, slot.Options{Target: &t, Trust: trust, Logger: o.Logger})
		if err != nil {
			return nil, fmt.Errorf("maint: slots: %w", err)
		}
		srv.Firmware, srv.Trust = store, trust
	}
	srv.Items = Items(site)
	return srv, nil
}

// Serve runs srv on listen ("tcp:HOST:PORT" or "serial:DEV", at baud; 0: DefaultBaud)
// until ctx ends. ready, when set, is told the address once listening (the TCP port
// chosen for ":0").
func Serve(ctx context.Context, srv *flash.Server, listen string, baud int, log *slog.Logger, ready func(addr string)) error {
	scheme, addr, ok := strings.Cut(listen, ":")
	if !ok || addr == "" {
		return fmt.Errorf("maint: listen %q: want tcp:HOST:PORT or serial:DEV", listen)
	}
	if ready == nil {
		ready = func(string) {}
	}
	switch scheme {
	case "tcp":
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			return fmt.Errorf("maint: %w", err)
		}
		ready(ln.Addr().String())
		return srv.ServeListener(ctx, ln)
	case "serial":
		if baud <= 0 {
			baud = DefaultBaud
		}
		ready(addr)
		return flashserial.Serve(ctx, srv, addr, baud, log)
	}
	return fmt.Errorf("maint: listen %q: want tcp:HOST:PORT or serial:DEV", listen)
}
