// Package fwkey holds the firmware signing keys: Ed25519 key pairs that sign firmware
// bundles, distinct from the operator's ledger keys. A key file is one line,
//
//	pos-firmware-ed25519-public BASE64 COMMENT
//	pos-firmware-ed25519-private BASE64(seed) COMMENT
//
// The first word names the key's use: a firmware key file is refused where a ledger key is
// wanted (the ledger's reader does not know this type) and a ledger key file
// ("pos-ed25519-…") is refused here, so one can never stand in for the other. TrustStore is
// the set of firmware public keys a terminal accepts bundles from.
//
// Once a terminal runs, its firmware keys change only by a Statement: the new full set
// with a version, signed by a firmware key it trusts now (LoadTrust reads the trust in
// force: the installed statement, else the anchor files it was flashed with).
package fwkey
