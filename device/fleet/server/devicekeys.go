package server

import (
	"crypto/ed25519"
	"encoding/base64"
	"fmt"
)

// A terminal's device keys in the registry (Terminal.DevicePub, RetiredDevicePubs): what
// the fleet checks the terminal's journal records with (docs/fleet.md, "The fleet is the
// witness").

// DeviceKey is the terminal's registered device public key (false: none registered).
func (t Terminal) DeviceKey() (ed25519.PublicKey, bool) { return decodeDeviceKey(t.DevicePub) }

func decodeDeviceKey(s string) (ed25519.PublicKey, bool) {
	b, err := base64.StdEncoding.DecodeString(s)
	if s == "" || err != nil || len(b) != ed25519.PublicKeySize || base64.StdEncoding.EncodeToString(b) != s {
		return nil, false
	}
	return ed25519.PublicKey(b), true
}

// DeviceKeys are every device key of the terminal: the one in force first, then those it
// replaced (none: not registered).
func (t Terminal) DeviceKeys() []ed25519.PublicKey {
	k, ok := t.DeviceKey()
	if !ok {
		return nil
	}
	out := []ed25519.PublicKey{k}
	for _, s := range t.RetiredDevicePubs {
		if k, ok := decodeDeviceKey(s); ok {
			out = append(out, k)
		}
	}
	return out
}

// EncodeDeviceKey is a device public key as Terminal.DevicePub holds it.
func EncodeDeviceKey(pub ed25519.PublicKey) string { return base64.StdEncoding.EncodeToString(pub) }

// DeviceKeys gives each terminal's registered device keys (Terminal.DeviceKeys; none:
// not registered, or not in the registry): what fleet report, settle and the witness
// check records with.
func (r *Registry) DeviceKeys() func(terminal string) []ed25519.PublicKey {
	keys := make(map[string][]ed25519.PublicKey, len(r.Terminals))
	for _, t := range r.Terminals {
		if ks := t.DeviceKeys(); len(ks) > 0 {
			keys[t.ID] = ks
		}
	}
	return func(id string) []ed25519.PublicKey { return keys[id] }
}

// checkDeviceKeys: each device key is a canonical base64 Ed25519 public key, and keys
// were retired only by one in force.
func (t Terminal) checkDeviceKeys() error {
	if _, ok := t.DeviceKey(); t.DevicePub != "" && !ok {
		return fmt.Errorf("fleet registry: terminal %s: device_pub is not a base64 Ed25519 public key", t.ID)
	}
	if len(t.RetiredDevicePubs) > 0 && t.DevicePub == "" {
		return fmt.Errorf("fleet registry: terminal %s: retired device keys without one in force", t.ID)
	}
	for _, s := range t.RetiredDevicePubs {
		if _, ok := decodeDeviceKey(s); !ok {
			return fmt.Errorf("fleet registry: terminal %s: a retired device key is not a base64 Ed25519 public key", t.ID)
		}
	}
	return nil
}
