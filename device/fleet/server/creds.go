package server

import (
	"fmt"

	"github.com/nats-io/jwt/v2"
	"github.com/nats-io/nkeys"

	"github.com/packterm/pos/internal/atomicfile"
)

// Operator/account (JWT) mode: an operator who runs NATS with operator, account and user
// JWTs (nsc, a resolver) keeps the same accounts as the config-file modes
// (AccountsConfig): the fleet's account exports FleetAccountExports, and each terminal
// gets an account of its own, signed by the operator, importing only its own subjects
// (TerminalAccountClaims), with one user whose .creds file (JWT and seed) the terminal's
// [fleet] credentials takes as it takes a bare seed.

// FleetAccountExports are the exports the fleet account's JWT must carry (nsc add export
// --service --subject S --response-threshold 10s, for each): the same services as
// FleetExports.
func FleetAccountExports() jwt.Exports {
	var ex jwt.Exports
	for _, s := range FleetExports() {
		ex.Add(&jwt.Export{Name: s, Subject: jwt.Subject(s), Type: jwt.Service, ResponseThreshold: ResponseThreshold})
	}
	return ex
}

// TerminalAccountConns bounds a terminal account's connections: its client, and a second
// while a dropped connection is still being noticed.
const TerminalAccountConns = 2

// TerminalAccountClaims are terminal id's own account (public key accountPub): imports of
// its own subjects from the fleet account (public key fleetAccount), no JetStream, at most
// TerminalAccountConns connections.
func TerminalAccountClaims(id, accountPub, fleetAccount string) *jwt.AccountClaims {
	ac := jwt.NewAccountClaims(accountPub)
	ac.Name = TerminalAccount(id)
	for _, im := range TerminalImports(id) {
		ac.Imports.Add(&jwt.Import{Name: im.Local, Subject: jwt.Subject(im.Remote), LocalSubject: jwt.RenamingSubject(im.Local),
			Account: fleetAccount, Type: jwt.Service})
	}
	ac.Limits.Conn = TerminalAccountConns
	ac.Limits.LeafNodeConn = 0
	return ac
}

// TerminalUserClaims are terminal id's user JWT claims for the user nkey userPub: publish
// its journal and its own requests, receive its own replies (TerminalPermissions).
func TerminalUserClaims(id, userPub string) *jwt.UserClaims {
	p := TerminalPermissions(id)
	uc := jwt.NewUserClaims(userPub)
	uc.Name = id
	uc.Pub.Allow = append(jwt.StringList(nil), p.Publish.Allow...)
	uc.Sub.Allow = append(jwt.StringList(nil), p.Subscribe.Allow...)
	return uc
}

// TerminalAccountCreds is what NewTerminalCreds made: the account's public key and JWT
// (for the servers' resolver: nsc push, or a file ACCOUNT.jwt in a full resolver's
// directory) and the user's public key (for the registry).
type TerminalAccountCreds struct {
	Account, AccountJWT, User string
}

// NewTerminalCreds creates terminal id's own account, signed by signer (the operator's key
// or one of its signing keys), importing its subjects from fleetAccount, and a user in it;
// it writes the user's .creds file at path (0600, never replaced). The account's own seed
// signs the user and is not kept: a terminal's credentials are replaced by a new account.
func NewTerminalCreds(path, id string, signer nkeys.KeyPair, fleetAccount string) (TerminalAccountCreds, error) {
	var out TerminalAccountCreds
	spub, err := signer.PublicKey()
	if err != nil || !nkeys.IsValidPublicOperatorKey(spub) {
		return out, fmt.Errorf("fleet: creds: the signing key is not an operator key")
	}
	if !nkeys.IsValidPublicAccountKey(fleetAccount) {
		return out, fmt.Errorf("fleet: creds: fleet account %.60q is not an account public key", fleetAccount)
	}
	akp, err := nkeys.CreateAccount()
	if err != nil {
		return out, err
	}
	out.Account, _ = akp.PublicKey()
	if out.AccountJWT, err = TerminalAccountClaims(id, out.Account, fleetAccount).Encode(signer); err != nil {
		return out, fmt.Errorf("fleet: creds: account: %w", err)
	}
	ukp, err := nkeys.CreateUser()
	if err != nil {
		return out, err
	}
	out.User, _ = ukp.PublicKey()
	seed, _ := ukp.Seed()
	token, err := TerminalUserClaims(id, out.User).Encode(akp)
	if err != nil {
		return out, fmt.Errorf("fleet: creds: %w", err)
	}
	creds, err := jwt.FormatUserConfig(token, seed)
	if err != nil {
		return out, fmt.Errorf("fleet: creds: %w", err)
	}
	if err := createFile(path, creds); err != nil {
		return out, fmt.Errorf("fleet: creds: %w", err)
	}
	return out, nil
}

// createFile writes b to a new file at path (0600, fsynced with its directory; an existing
// file is an error, and a failed write leaves none: atomicfile.WriteNew).
func createFile(path string, b []byte) error {
	return atomicfile.WriteNew(path, b, 0o600)
}
