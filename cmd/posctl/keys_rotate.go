package main

import (
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/packterm/pos/firmware/fwkey"
	"github.com/packterm/pos/internal/atomicfile"
	"github.com/packterm/pos/internal/regularfile"
	"github.com/packterm/pos/validate/ledger"
)

// rotateOpts are the flags of keys rotate.
type rotateOpts struct {
	key, out, from string
	add, remove    []string
	version        uint64
	firmware       bool
}

// stmtFamily is what keys rotate needs of the operator or the firmware key family.
type stmtFamily struct {
	name     string
	loadPriv func(string) (ed25519.PrivateKey, error)
	loadPub  func(string) (ed25519.PublicKey, error)
	loadStmt func(string) (version uint64, keys []ed25519.PublicKey, err error)
	sign     func(uint64, []ed25519.PublicKey, ed25519.PrivateKey) ([]byte, error)
	id       func(ed25519.PublicKey) string
}

var operatorFamily = stmtFamily{
	name: "operator", loadPriv: ledger.LoadPrivateKey, loadPub: ledger.LoadPublicKey, sign: ledger.SignKeyStatement,
	loadStmt: func(p string) (uint64, []ed25519.PublicKey, error) {
		s, err := ledger.LoadKeyStatement(p)
		if err != nil {
			return 0, nil, err
		}
		return s.Version(), s.Keys(), nil
	},
	id: func(k ed25519.PublicKey) string { return ledger.IDOf(k).String() },
}

var firmwareFamily = stmtFamily{
	name: "firmware", loadPriv: fwkey.LoadPrivate, loadPub: fwkey.LoadPublic, sign: fwkey.SignStatement,
	loadStmt: func(p string) (uint64, []ed25519.PublicKey, error) {
		s, err := fwkey.LoadStatement(p)
		if err != nil {
			return 0, nil, err
		}
		return s.Version(), s.Keys(), nil
	},
	id: func(k ed25519.PublicKey) string { return fwkey.IDOf(k).String() },
}

func init() {
	var o rotateOpts
	cmd := &cobra.Command{
		Use:   "rotate --key SIGNER.key --out STMT [--from PREVIOUS.stmt] [--add NEW.pub]... [--remove ID|OLD.pub]... [--firmware]",
		Short: "Sign a key statement: the new full set of operator (or firmware) keys terminals trust",
		Long: "Terminals change the keys they trust only by a statement signed with a key they trust now; the\n" +
			"technician's token never suffices, and a bare key file is refused. The statement lists the whole\n" +
			"new set and a version; a terminal installs only a version above the one it holds.\n\n" +
			"The set starts from --from (the last statement you issued; the version is its version + 1), or\n" +
			"else from the signing key alone (version --version, default 1). --add puts public key files in,\n" +
			"--remove takes keys out (by id or public key file). Send the result with\n" +
			"posctl provision --to LINK --keys STMT. --firmware: firmware keys (firmware.key, firmware.pub).",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			fam := operatorFamily
			if o.firmware {
				fam = firmwareFamily
			}
			return rotate(cmd.OutOrStdout(), fam, o, cmd.Flags().Changed("version"))
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.key, "key", "", "private key that signs: one the terminals trust now (operator.key, or firmware.key with --firmware)")
	f.StringVar(&o.out, "out", "", "statement file to write (never overwritten)")
	f.StringVar(&o.from, "from", "", "the previous statement: its keys are the starting set, its version + 1 the new version")
	f.StringArrayVar(&o.add, "add", nil, "public key file to trust (repeat for several)")
	f.StringArrayVar(&o.remove, "remove", nil, "key to stop trusting: its id (16 hex digits) or its public key file (repeat)")
	f.Uint64Var(&o.version, "version", 1, "statement version without --from (above the one the terminals hold)")
	f.BoolVar(&o.firmware, "firmware", false, "a statement of firmware keys instead of operator keys")
	keysCmd.AddCommand(cmd)
}

func rotate(w io.Writer, fam stmtFamily, o rotateOpts, versionSet bool) error {
	if o.key == "" || o.out == "" {
		return fmt.Errorf("keys rotate: --key and --out are required")
	}
	if _, err := os.Lstat(o.out); err == nil {
		return fmt.Errorf("keys rotate: %s exists: statements are never overwritten (keep it for --from)", o.out)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("keys rotate: %w", err)
	}
	priv, err := fam.loadPriv(o.key)
	if err != nil {
		return fmt.Errorf("keys rotate: signing key: %w", err)
	}
	signer := priv.Public().(ed25519.PublicKey)
	set, version := []ed25519.PublicKey{signer}, o.version
	if o.from != "" {
		v, keys, err := fam.loadStmt(o.from)
		if err != nil {
			return fmt.Errorf("keys rotate: --from: %w", err)
		}
		if versionSet && o.version <= v {
			return fmt.Errorf("keys rotate: --version %d is not above --from's version %d", o.version, v)
		}
		set = keys
		if !versionSet {
			version = v + 1
		}
	}
	for _, p := range o.add {
		k, err := fam.loadPub(p)
		if err != nil {
			return fmt.Errorf("keys rotate: --add: %w", err)
		}
		if slices.ContainsFunc(set, func(x ed25519.PublicKey) bool { return x.Equal(k) }) {
			return fmt.Errorf("keys rotate: --add %s: key %s is already in the set", p, fam.id(k))
		}
		set = append(set, k)
	}
	for _, r := range o.remove {
		i, err := findKey(fam, set, r)
		if err != nil {
			return err
		}
		set = slices.Delete(set, i, i+1)
	}
	if len(set) == 0 {
		return fmt.Errorf("keys rotate: the new set would trust no %s key: terminals would take nothing more", fam.name)
	}
	text, err := fam.sign(version, set, priv)
	if err != nil {
		return fmt.Errorf("keys rotate: %w", err)
	}
	if err := atomicfile.WriteNew(o.out, text, 0o644); err != nil {
		return fmt.Errorf("keys rotate: %w", err)
	}
	ids := make([]string, len(set))
	for i, k := range set {
		ids[i] = fam.id(k)
	}
	slices.Sort(ids)
	fmt.Fprintf(w, "%s key statement: %s\nversion:   %d\nkeys:      %s\nsigned by: %s\n", fam.name, o.out, version, strings.Join(ids, " "), fam.id(signer))
	if !slices.ContainsFunc(set, func(x ed25519.PublicKey) bool { return x.Equal(signer) }) {
		fmt.Fprintf(w, "note: the signing key is not in the new set: once installed, it no longer signs for these terminals\n")
	}
	fmt.Fprintf(w, "send it:   posctl provision --to LINK --keys %s\n", o.out)
	return nil
}

// findKey is the index in set of r: a key id in hex or a public key file.
func findKey(fam stmtFamily, set []ed25519.PublicKey, r string) (int, error) {
	id := strings.ToLower(r)
	if b, err := hex.DecodeString(id); err != nil || len(b) != 8 {
		if f, _, err := regularfile.Open(r); err != nil {
			return 0, fmt.Errorf("keys rotate: --remove %s: neither a key id (16 hex digits) nor a public key file: %w", r, err)
		} else {
			f.Close()
		}
		k, err := fam.loadPub(r)
		if err != nil {
			return 0, fmt.Errorf("keys rotate: --remove: %w", err)
		}
		id = fam.id(k)
	}
	for i, k := range set {
		if fam.id(k) == id {
			return i, nil
		}
	}
	return 0, fmt.Errorf("keys rotate: --remove %s: key %s is not in the set", r, id)
}
