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

// A terminal's .creds file holds a user JWT signed by the terminal's own account with
// exactly the nkey mode's permissions, and its seed; the account is signed by the operator
// and imports the terminal's own subjects from the fleet account, nothing else; the file
// is private and never replaced.
func TestNewTerminalCreds(t *testing.T) {
	dir := t.TempDir()
	okp, _ := nkeys.CreateOperator()
	opub, _ := okp.PublicKey()
	fkp, _ := nkeys.CreateAccount()
	fleetPub, _ := fkp.PublicKey()
	path := filepath.Join(dir, "T0042.creds")
	got, err := NewTerminalCreds(path, "T0042", okp, fleetPub)
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
	if uc.Subject != got.User || uc.Issuer != got.Account || !slices.Equal([]string(uc.Pub.Allow), p.Publish.Allow) ||
		!slices.Equal([]string(uc.Sub.Allow), p.Subscribe.Allow) || len(uc.Pub.Deny)+len(uc.Sub.Deny) != 0 {
		t.Fatalf("user claims %+v", uc)
	}
	ac, err := jwt.DecodeAccountClaims(got.AccountJWT)
	if err != nil {
		t.Fatal(err)
	}
	var imports []string
	for _, im := range ac.Imports {
		if im.Account != fleetPub || im.Type != jwt.Service {
			t.Errorf("import %+v", im)
		}
		imports = append(imports, string(im.Subject)+" as "+string(im.LocalSubject))
	}
	var want []string
	for _, im := range TerminalImports("T0042") {
		want = append(want, im.Remote+" as "+im.Local)
	}
	slices.Sort(imports)
	slices.Sort(want)
	if ac.Subject != got.Account || ac.Issuer != opub || !slices.Equal(imports, want) ||
		len(ac.Exports) != 0 || ac.Limits.Conn != TerminalAccountConns || ac.Limits.IsJSEnabled() {
		t.Fatalf("account claims %+v", ac)
	}
	kp, err := jwt.ParseDecoratedUserNKey(b)
	if err != nil {
		t.Fatal(err)
	}
	if pub, _ := kp.PublicKey(); pub != got.User {
		t.Errorf("seed of %s, JWT of %s", pub, got.User)
	}
	if _, err := NewTerminalCreds(path, "T0042", okp, fleetPub); err == nil {
		t.Error("an existing .creds file was replaced")
	}
	if _, err := NewTerminalCreds(filepath.Join(dir, "x.creds"), "T1", fkp, fleetPub); err == nil || !strings.Contains(err.Error(), "operator") {
		t.Errorf("account key as signer: %v", err)
	}
	if _, err := NewTerminalCreds(filepath.Join(dir, "y.creds"), "T1", okp, opub); err == nil || !strings.Contains(err.Error(), "account") {
		t.Errorf("operator key as the fleet account: %v", err)
	}
}
