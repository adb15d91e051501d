package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nkeys"

	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/internal/atomicfile"
)

// RegistryFile is the registry's name in the server's data directory; OperatorSeedFile
// holds the operator's own nkey seed there (0600).
const (
	RegistryFile     = "terminals.json"
	OperatorSeedFile = "operator.nk"
)

// Terminal is one registered terminal.
type Terminal struct {
	ID       string `json:"id"`
	Retailer uint32 `json:"retailer"`
	NKey     string `json:"nkey"` // public user nkey ("U...")
	// DevicePub is the terminal's device public key (the journal's device.pub: it signs
	// every record), standard base64 of its 32 bytes; empty: not registered, the fleet
	// cannot check the terminal's records (docs/fleet.md, "The fleet is the witness").
	DevicePub string `json:"device_pub,omitempty"`
	// RetiredDevicePubs are the device keys DevicePub replaced (posctl fleet
	// set-device-key --replace: a journal reset makes a new key): the records they signed
	// still verify.
	RetiredDevicePubs []string `json:"retired_device_pubs,omitempty"`
}

// Registry is who may connect: the operator (every permission) and each terminal (its
// own subjects only).
type Registry struct {
	Operator  string     `json:"operator"` // public user nkey of the operator's tools and service
	Terminals []Terminal `json:"terminals"`
}

// Terminal finds a terminal by id.
func (r *Registry) Terminal(id string) (Terminal, bool) {
	for _, t := range r.Terminals {
		if t.ID == id {
			return t, true
		}
	}
	return Terminal{}, false
}

// Check checks ids and keys.
func (r *Registry) Check() error {
	if !nkeys.IsValidPublicUserKey(r.Operator) {
		return fmt.Errorf("fleet registry: operator nkey %.60q is not a public user key", r.Operator)
	}
	seen := map[string]bool{r.Operator: true}
	ids := map[string]bool{}
	for _, t := range r.Terminals {
		if err := fleet.CheckTerminal(t.ID); err != nil {
			return fmt.Errorf("fleet registry: %w", err)
		}
		if !nkeys.IsValidPublicUserKey(t.NKey) {
			return fmt.Errorf("fleet registry: terminal %s: nkey is not a public user key", t.ID)
		}
		if err := t.checkDeviceKeys(); err != nil {
			return err
		}
		if ids[t.ID] || seen[t.NKey] {
			return fmt.Errorf("fleet registry: terminal %s: id or nkey registered twice", t.ID)
		}
		ids[t.ID], seen[t.NKey] = true, true
	}
	return nil
}

// TerminalPermissions are what a terminal may do: publish its own journal records and
// requests, receive replies on its own inbox. Nothing else: no JetStream API, no KV.
func TerminalPermissions(id string) *server.Permissions {
	return &server.Permissions{
		Publish: &server.SubjectPermission{Allow: []string{
			"journal." + id + ".>",
			fleet.ClaimPrefix + id,
			fleet.ConflictsPrefix + id,
			fleet.StatusPrefix + id,
			fleet.HeadPrefix + id,
		}},
		Subscribe: &server.SubjectPermission{Allow: []string{fleet.InboxPrefix + id + ".>"}},
	}
}

// LoadRegistry reads dir/terminals.json.
func LoadRegistry(dir string) (*Registry, error) {
	b, err := os.ReadFile(filepath.Join(dir, RegistryFile))
	if err != nil {
		return nil, fmt.Errorf("fleet registry: %w", err)
	}
	return ParseRegistry(b)
}

// maxRegistry bounds a registry file (about 200 bytes a terminal).
const maxRegistry = 64 << 20

// ParseRegistry reads and checks a registry.
func ParseRegistry(b []byte) (*Registry, error) {
	if len(b) > maxRegistry {
		return nil, fmt.Errorf("fleet registry: %d bytes, at most %d", len(b), maxRegistry)
	}
	var r Registry
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("fleet registry %s: %w", RegistryFile, err)
	}
	if err := r.Check(); err != nil {
		return nil, err
	}
	return &r, nil
}

// SaveRegistry writes dir/terminals.json (temporary file, fsync, rename).
func SaveRegistry(dir string, r *Registry) error {
	if err := r.Check(); err != nil {
		return err
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return writeFile(filepath.Join(dir, RegistryFile), append(b, '\n'), 0o644)
}

// InitData makes dir a server data directory: the operator's nkey seed (created once)
// and a registry naming it. It returns the registry.
func InitData(dir string) (*Registry, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("fleet: data: %w", err)
	}
	seedPath := filepath.Join(dir, OperatorSeedFile)
	kp, err := ReadSeed(seedPath)
	if errors.Is(err, fs.ErrNotExist) {
		if kp, err = NewSeedFile(seedPath); err != nil {
			return nil, err
		}
	} else if err != nil {
		return nil, err
	}
	pub, _ := kp.PublicKey()
	r, err := LoadRegistry(dir)
	if errors.Is(err, fs.ErrNotExist) {
		r = &Registry{Operator: pub}
		return r, SaveRegistry(dir, r)
	}
	if err != nil {
		return nil, err
	}
	if r.Operator != pub {
		return nil, fmt.Errorf("fleet registry: operator key is not the one of %s", OperatorSeedFile)
	}
	return r, nil
}

// NewSeedFile creates a user nkey and writes its seed to path (0600, never replaced).
func NewSeedFile(path string) (nkeys.KeyPair, error) {
	kp, err := nkeys.CreateUser()
	if err != nil {
		return nil, err
	}
	seed, _ := kp.Seed()
	if err := atomicfile.WriteNew(path, append(seed, '\n'), 0o600); err != nil {
		return nil, fmt.Errorf("fleet: nkey: %w", err)
	}
	return kp, nil
}

// ReadSeed reads an nkey seed file.
func ReadSeed(path string) (nkeys.KeyPair, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("fleet: nkey: %w", err)
	}
	kp, err := nkeys.ParseDecoratedNKey(b)
	if err != nil {
		return nil, fmt.Errorf("fleet: nkey %s: %w", filepath.Base(path), err)
	}
	return kp, nil
}

func writeFile(path string, b []byte, mode os.FileMode) error {
	return atomicfile.WriteFile(path, b, mode)
}
