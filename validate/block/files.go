package block

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/packterm/pos/internal/atomicfile"
	"github.com/packterm/pos/internal/regularfile"
	"github.com/packterm/pos/validate/game"
	"github.com/packterm/pos/validate/ledger"
)

// ErrExists is returned when the output directory already holds files of the block.
var ErrExists = errors.New("files of this block exist; remove them or choose another directory")

// PrintFileName is the printer's file of block b.
func PrintFileName(b uint16) string { return fmt.Sprintf("block-%d.print.csv.gz", b) }

// ManifestFileName records how block b was made (its seed: keep it as secret as the
// printer's file).
func ManifestFileName(b uint16) string { return fmt.Sprintf("block-%d.manifest.json", b) }

// Manifest is the operator's record of a generation.
type Manifest struct {
	Block         uint16 `json:"block"`
	LedgerVersion uint64 `json:"ledger_version"`
	Seed          string `json:"seed"`
	Packs         int    `json:"packs"`
	Tickets       int    `json:"tickets"`
	Patterns      int    `json:"design_patterns"`
	Ledger        string `json:"ledger_file"`
	LedgerSHA256  string `json:"ledger_sha256"`
	Print         string `json:"print_file"`
	PrintSHA256   string `json:"print_sha256"`
	// DefinitionSHA256 identifies the game definition the block was made with
	// (DefinitionSHA256 of it): settlement rebuilds the design from the seed and needs
	// the same definition.
	DefinitionSHA256 string `json:"definition_sha256,omitempty"`
	// DesignSHA256 identifies the design the seed gave (Plan.DesignSHA256): settlement
	// rebuilds it and refuses a different one (another architecture rounds the design's
	// linear programs differently: docs/block.md).
	DesignSHA256 string `json:"design_sha256,omitempty"`
}

// DefinitionSHA256 is the hexadecimal SHA-256 of d's JSON encoding (the form posctl game
// show --json prints): two definitions with the same tables and rules have the same.
func DefinitionSHA256(d *game.Definition) string { return jsonSHA256(d) }

// jsonSHA256 is the hexadecimal SHA-256 of v's JSON encoding ("" if v does not encode:
// the definitions and designs given here always do).
func jsonSHA256(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// Files writes the block of plan to dir: the signed ledger, the printer's file and the
// manifest. Each file is written to a temporary name, synced, then renamed, so that a
// crash leaves either the old file or the whole new one.
//
// It refuses to replace any file of the same block already in dir (ErrExists): a block's
// printer's file, ledger and manifest belong together, and a printed block's must never
// be overwritten by another generation.
func (p *Plan) Files(ctx context.Context, dir string, version uint64, key ed25519.PrivateKey, progress func(done int)) (*Manifest, error) {
	if err := CheckFree(dir, p.Number); err != nil {
		return nil, err
	}
	h := ledger.Header{Block: p.Number, Version: version, Packs: uint32(p.Def.BlockPacks), Definition: p.Def}
	entries := ledger.NewEntries(h.Entries())
	printPath := filepath.Join(dir, PrintFileName(p.Number))
	hash := sha256.New()
	err := atomicfile.Write(printPath, 0o600, func(w io.Writer) error {
		return p.Generate(ctx, Output{
			Print:    io.MultiWriter(w, hash),
			Ticket:   func(t *Ticket) error { entries.Set(h.Index(t.ID), ledger.Seal(t.ID, t.Secret, t.Tier)); return nil },
			Progress: progress,
		})
	}, nil)
	if err != nil {
		return nil, err
	}
	printSum := hash.Sum(nil)
	ledgerPath := filepath.Join(dir, ledger.FileName(p.Number))
	if err := ledger.Write(ledgerPath, h, entries, key); err != nil {
		return nil, err
	}
	ledgerSum, err := fileSHA256(ledgerPath)
	if err != nil {
		return nil, err
	}
	m := &Manifest{
		Block: p.Number, LedgerVersion: version, Seed: p.Seed.String(),
		Packs: p.Def.BlockPacks, Tickets: p.Def.TicketsPerBlock(), Patterns: len(p.Design.Patterns),
		Ledger: ledger.FileName(p.Number), LedgerSHA256: hex.EncodeToString(ledgerSum),
		Print: PrintFileName(p.Number), PrintSHA256: hex.EncodeToString(printSum),
		DefinitionSHA256: DefinitionSHA256(p.Def),
		DesignSHA256:     p.DesignSHA256(),
	}
	err = atomicfile.Write(filepath.Join(dir, ManifestFileName(p.Number)), 0o600, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(m)
	}, nil)
	return m, err
}

// CheckFree fails with ErrExists when dir already holds a file of block b (its ledger,
// printer's file or manifest); posctl calls it before any design work.
func CheckFree(dir string, b uint16) error {
	for _, name := range []string{PrintFileName(b), ledger.FileName(b), ManifestFileName(b)} {
		if _, err := os.Lstat(filepath.Join(dir, name)); err == nil {
			return fmt.Errorf("block: %s already holds %s: %w", dir, name, ErrExists)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("block: checking %s: %w", dir, err)
		}
	}
	return nil
}

// OpenPrintFile opens a printer's file for Audit: a regular file only (a FIFO or a
// device is refused before anything is read from it, ledger.ErrNotRegular).
func OpenPrintFile(path string) (*os.File, error) {
	f, _, err := regularfile.Open(path)
	if err != nil {
		return nil, fmt.Errorf("block: printer's file: %w", err)
	}
	return f, nil
}

func fileSHA256(path string) ([]byte, error) {
	f, _, err := regularfile.Open(path)
	if err != nil {
		return nil, fmt.Errorf("block: hashing %s: %w", path, err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return nil, fmt.Errorf("block: hashing %s: %w", path, err)
	}
	return h.Sum(nil), nil
}
