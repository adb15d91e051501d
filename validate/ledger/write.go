package ledger

import (
	"crypto/ed25519"
	"fmt"
	"io"

	"github.com/packterm/pos/internal/atomicfile"
)

// FileName is the name of block b's ledger file: "block-B.ledger".
func FileName(block uint16) string { return fmt.Sprintf("block-%d.ledger", block) }

// Write writes the ledger of h and entries to path, signed with the operator key: it
// hashes the entry chunks (on every core), signs the header, streams header, signature
// and entries to a temporary file beside path, syncs it and renames it over path (then
// syncs the directory), so that path holds either the old file or the whole new one.
// entries.Len() must be h.Entries(). The output is a pure function of the arguments
// (Ed25519 signatures are deterministic).
func Write(path string, h Header, entries *Entries, key ed25519.PrivateKey) error {
	hdr, err := signedHeader(&h, entries, key, DefaultChunkEntries)
	if err != nil {
		return err
	}
	return atomicfile.Write(path, 0o644, func(w io.Writer) error {
		if _, err := w.Write(hdr); err != nil {
			return err
		}
		_, err := w.Write(entries.Bytes())
		return err
	}, nil)
}

// Marshal returns the ledger file's bytes (header, signature, entries) in memory.
func Marshal(h Header, entries *Entries, key ed25519.PrivateKey) ([]byte, error) {
	return marshalChunked(h, entries, key, DefaultChunkEntries)
}

func marshalChunked(h Header, entries *Entries, key ed25519.PrivateKey, chunk int) ([]byte, error) {
	hdr, err := signedHeader(&h, entries, key, chunk)
	if err != nil {
		return nil, err
	}
	return append(hdr, entries.Bytes()...), nil
}

// signedHeader checks the arguments and returns the header followed by its signature.
func signedHeader(h *Header, entries *Entries, key ed25519.PrivateKey, chunk int) ([]byte, error) {
	if err := h.check(); err != nil {
		return nil, fmt.Errorf("ledger: write: %v: %w", err, ErrFormat)
	}
	if len(key) != ed25519.PrivateKeySize {
		return nil, fmt.Errorf("ledger: write: no operator private key: %w", ErrKeyFile)
	}
	n := h.Entries()
	if entries == nil || entries.Len() != n {
		got := 0
		if entries != nil {
			got = entries.Len()
		}
		return nil, fmt.Errorf("ledger: write: %d entries for %d packs of %d tickets: %w", got, h.Packs, h.Definition.TicketsPerPack, ErrFormat)
	}
	if chunk < 2 || chunk%2 != 0 || chunkCount(n, chunk) > maxChunks {
		return nil, fmt.Errorf("ledger: write: chunk of %d entries: %w", chunk, ErrFormat)
	}
	if err := checkPadding(entries); err != nil {
		return nil, err
	}
	def, err := marshalDefinition(h.Definition)
	if err != nil {
		return nil, fmt.Errorf("ledger: write: definition: %w", err)
	}
	if len(def) > maxDefinition {
		return nil, fmt.Errorf("ledger: write: definition of %d bytes: %w", len(def), ErrFormat)
	}
	leaves := hashChunks(entries.Bytes(), n, chunk)
	pub := key.Public().(ed25519.PublicKey)
	hdr := encodeHeader(h, def, IDOf(pub), chunk, leaves, rootHash(leaves))
	return append(hdr, ed25519.Sign(key, hdr)...), nil
}

// checkPadding checks that the unused half of the last pair (odd counts) is zero.
func checkPadding(entries *Entries) error {
	if !paddingZero(entries.Bytes(), entries.Len()) {
		return fmt.Errorf("ledger: write: padding after the last entry is not zero: %w", ErrFormat)
	}
	return nil
}
