package server

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nats-io/jwt/v2"
	"github.com/nats-io/nkeys"
)

// A terminal's .creds file holds a user JWT signed by the fleet account with exactly the
// nkey mode's permissions, and its seed; the file is private and never replaced.
func TestNewTerminalCreds(t *testing.T) {
	dir := t.TempDir()
	akp, _ := nkeys.CreateAccount()
	apub, _ := akp.PublicKey()
	path := filepath.Join(dir, "T0042.creds")
	pub, err := NewTerminalCreds(path, "T0042", akp, "")
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", fi.Mode())
	}
	token, err := jwt.ParseDecoratedJWT(b)
	if err != nil {
		t.Fatal(err)
	}
	uc, err := jwt.DecodeUserClaims(token)
	if err != nil {
		t.Fatal(err)
	}
	p := TerminalPermissions("T0042")
	if uc.Subject != pub || uc.Issuer != apub || !slices.Equal([]string(uc.Pub.Allow), p.Publish.Allow) ||
		!slices.Equal([]string(uc.Sub.Allow), p.Subscribe.Allow) || len(uc.Pub.Deny)+len(uc.Sub.Deny) != 0 {
		t.Fatalf("claims %+v", uc)
	}
	kp, err := jwt.ParseDecoratedUserNKey(b)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := kp.PublicKey(); got != pub {
		t.Errorf("seed of %s, JWT of %s", got, pub)
	}
	if _, err := NewTerminalCreds(path, "T0042", akp, ""); err == nil {
		t.Error("an existing .creds file was replaced")
	}
	ukp, _ := nkeys.CreateUser()
	if _, err := NewTerminalCreds(filepath.Join(dir, "x.creds"), "T1", ukp, ""); err == nil || !strings.Contains(err.Error(), "account") {
		t.Errorf("user key as signer: %v", err)
	}
	// Signed by a signing key of the account: the JWT names the account it speaks for.
	skp, _ := nkeys.CreateAccount()
	if _, err := NewTerminalCreds(filepath.Join(dir, "s.creds"), "T1", skp, apub); err != nil {
		t.Fatal(err)
	}
	b, _ = os.ReadFile(filepath.Join(dir, "s.creds"))
	token, _ = jwt.ParseDecoratedJWT(b)
	if uc, err := jwt.DecodeUserClaims(token); err != nil || uc.IssuerAccount != apub {
		t.Fatalf("issuer account: %v %+v", err, uc)
	}
}
