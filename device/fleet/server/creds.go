package server

import (
	"fmt"

	"github.com/nats-io/jwt/v2"
	"github.com/nats-io/nkeys"

	"github.com/packterm/pos/internal/atomicfile"
)

// Operator/account (JWT) mode: an operator who runs NATS with operator, account and user
// JWTs (nsc, a resolver) gives each terminal a user JWT signed by the fleet's account,
// carrying the same permissions as the embedded server gives its nkey users
// (TerminalPermissions), and hands it over as a .creds file (JWT + seed), which the
// terminal's [fleet] credentials takes as it takes a bare seed.

// TerminalUserClaims are terminal id's user JWT claims for the user nkey userPub: publish
// its journal and its own requests, receive its own replies, nothing else (no JetStream
// API, no KV), as TerminalPermissions.
func TerminalUserClaims(id, userPub string) *jwt.UserClaims {
	p := TerminalPermissions(id)
	uc := jwt.NewUserClaims(userPub)
	uc.Name = id
	uc.Pub.Allow = append(jwt.StringList(nil), p.Publish.Allow...)
	uc.Sub.Allow = append(jwt.StringList(nil), p.Subscribe.Allow...)
	return uc
}

// NewTerminalCreds creates a user nkey for terminal id, signs its user JWT with signer
// (the fleet account's own key, or one of its signing keys: then issuerAccount is the
// account's public key, else ""), and writes the .creds file at path (0600, never
// replaced). It returns the user's public key, for the registry.
func NewTerminalCreds(path, id string, signer nkeys.KeyPair, issuerAccount string) (string, error) {
	spub, err := signer.PublicKey()
	if err != nil || !nkeys.IsValidPublicAccountKey(spub) {
		return "", fmt.Errorf("fleet: creds: the signing key is not an account key")
	}
	if issuerAccount != "" && !nkeys.IsValidPublicAccountKey(issuerAccount) {
		return "", fmt.Errorf("fleet: creds: issuer account %.60q is not an account public key", issuerAccount)
	}
	kp, err := nkeys.CreateUser()
	if err != nil {
		return "", err
	}
	pub, _ := kp.PublicKey()
	seed, _ := kp.Seed()
	uc := TerminalUserClaims(id, pub)
	uc.IssuerAccount = issuerAccount
	token, err := uc.Encode(signer)
	if err != nil {
		return "", fmt.Errorf("fleet: creds: %w", err)
	}
	creds, err := jwt.FormatUserConfig(token, seed)
	if err != nil {
		return "", fmt.Errorf("fleet: creds: %w", err)
	}
	if err := atomicfile.WriteNew(path, creds, 0o600); err != nil {
		return "", fmt.Errorf("fleet: creds: %w", err)
	}
	return pub, nil
}
