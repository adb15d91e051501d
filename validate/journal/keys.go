package journal

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/packterm/pos/internal/atomicfile"
	"github.com/packterm/pos/validate/ledger"
)

// loadKeys sets the device key: given, loaded from DIR/device.key, or created there at
// first start (0600, with DIR/device.pub beside it). A read-only open only needs the
// public key: given, or DIR/device.pub.
func (j *Journal) loadKeys(o Options) error {
	if o.ReadOnly {
		switch {
		case o.PublicKey != nil:
			j.pub, j.keyTrusted = o.PublicKey, true
		case o.DeviceKey != nil:
			j.pub, j.keyTrusted = o.DeviceKey.Public().(ed25519.PublicKey), true
		default:
			pub, err := ledger.LoadPublicKey(filepath.Join(j.dir, DevicePubFile))
			if err != nil {
				return fmt.Errorf("journal: device public key (give one to check the checkpoints): %w", err)
			}
			j.pub = pub
		}
		if len(j.pub) != ed25519.PublicKeySize {
			return fmt.Errorf("journal: device public key: %d bytes", len(j.pub))
		}
		return nil
	}
	if err := os.MkdirAll(j.dir, 0o700); err != nil {
		return fmt.Errorf("journal: open: %w", err)
	}
	if o.DeviceKey != nil {
		if len(o.DeviceKey) != ed25519.PrivateKeySize {
			return fmt.Errorf("journal: device key: %d bytes", len(o.DeviceKey))
		}
		j.priv = o.DeviceKey
		j.pub, j.keyTrusted = o.DeviceKey.Public().(ed25519.PublicKey), true
		return nil
	}
	keyPath := filepath.Join(j.dir, DeviceKeyFile)
	pubPath := filepath.Join(j.dir, DevicePubFile)
	priv, err := ledger.LoadPrivateKey(keyPath)
	if errors.Is(err, fs.ErrNotExist) {
		priv, err = createDeviceKey(keyPath, j.terminal)
	}
	if err != nil {
		return fmt.Errorf("journal: device key: %w", err)
	}
	j.priv = priv
	j.pub = priv.Public().(ed25519.PublicKey)
	comment := "device " + j.terminal + " " + ledger.IDOf(j.pub).String()
	if pub, err := ledger.LoadPublicKey(pubPath); err == nil {
		if !bytes.Equal(pub, j.pub) {
			return fmt.Errorf("journal: %s does not match %s", pubPath, keyPath)
		}
		return nil
	}
	text := ledger.MarshalPublicKey(j.pub, comment)
	if err := atomicfile.Write(pubPath, 0o644, func(w io.Writer) error { _, err := w.Write(text); return err }, nil); err != nil {
		return fmt.Errorf("journal: device key: %w", err)
	}
	return nil
}

func createDeviceKey(path, terminal string) (ed25519.PrivateKey, error) {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, err
	}
	text := ledger.MarshalPrivateKey(priv, "device "+terminal+" "+ledger.IDOf(pub).String())
	if err := atomicfile.Write(path, 0o600, func(w io.Writer) error { _, err := w.Write(text); return err }, nil); err != nil {
		return nil, err
	}
	return priv, nil
}
