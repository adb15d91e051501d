package settle

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"

	"github.com/packterm/pos/internal/strictjson"
	"github.com/packterm/pos/validate/block"
	"github.com/packterm/pos/validate/codes"
)

// MaxManifestSize bounds a manifest file (a real one is a few hundred bytes).
const MaxManifestSize = 64 << 10

// ErrManifest: a manifest that does not read.
var ErrManifest = errors.New("bad block manifest")

// Manifest is what settlement needs of a block's manifest: its number and seed, and what
// checks the game definition given with it (0 and "" when the manifest does not say).
type Manifest struct {
	Block            uint16
	Seed             block.Seed
	Packs            int    // packs of the block
	Patterns         int    // design patterns
	DefinitionSHA256 string // block.DefinitionSHA256 of the definition it was made with
	DesignSHA256     string // block.Plan.DesignSHA256 of the design its seed gave
}

// ReadManifest reads a block manifest (block-B.manifest.json, as posctl ledger gen
// writes it) and checks the block number and seed. It is strict JSON
// (internal/strictjson): a key twice, a key in another case or an unknown key is refused,
// so that no second "seed" decides the settlement.
func ReadManifest(r io.Reader) (Manifest, error) {
	b, err := io.ReadAll(io.LimitReader(r, MaxManifestSize+1))
	if err != nil {
		return Manifest{}, fmt.Errorf("settle: manifest: %w", err)
	}
	if len(b) > MaxManifestSize {
		return Manifest{}, fmt.Errorf("settle: manifest over %d bytes: %w", MaxManifestSize, ErrManifest)
	}
	var m block.Manifest
	if err := strictjson.Unmarshal(b, &m); err != nil {
		return Manifest{}, fmt.Errorf("settle: manifest: %v: %w", err, ErrManifest)
	}
	if m.Block < codes.MinBlock || m.Block > codes.MaxBlock {
		return Manifest{}, fmt.Errorf("settle: manifest: block %d out of range %d–%d: %w", m.Block, codes.MinBlock, codes.MaxBlock, ErrManifest)
	}
	seed, err := block.ParseSeed(m.Seed)
	if err != nil {
		return Manifest{}, fmt.Errorf("settle: manifest: %v: %w", err, ErrManifest)
	}
	if m.Packs < 0 || m.Packs > codes.PacksPerBlock || m.Patterns < 0 || m.Patterns > codes.PacksPerBlock {
		return Manifest{}, fmt.Errorf("settle: manifest: %d packs, %d patterns: %w", m.Packs, m.Patterns, ErrManifest)
	}
	if m.DesignSHA256 != "" {
		b, err := hex.DecodeString(m.DesignSHA256)
		if err != nil || len(b) != sha256.Size {
			return Manifest{}, fmt.Errorf("settle: manifest: design_sha256 %.80q: %w", m.DesignSHA256, ErrManifest)
		}
		m.DesignSHA256 = hex.EncodeToString(b) // as block.Plan.DesignSHA256 writes it: lower case
	}
	return Manifest{Block: m.Block, Seed: seed, Packs: m.Packs, Patterns: m.Patterns, DefinitionSHA256: m.DefinitionSHA256,
		DesignSHA256: m.DesignSHA256}, nil
}
