// Package ledger is the terminal's signed block ledger (SPEC §5, docs/ledger.md): one
// fixed-size sealed entry per ticket of a block, a header that carries the game definition
// and a two-level hash tree over the entries, signed with Ed25519 by the operator; the
// pack status list of one retailer (packs delivered here, packs void or stolen), signed
// and versioned the same way; the operator's key files; and the trust rules of the
// terminal, which pins operator public keys and fails closed.
//
// An entry is 28 bits: the ticket's tier (4 bits, 0 = losing ticket, k = k-th line of its
// game's prize table) masked with a pad of HMAC-SHA256 keyed by the ticket's 80-bit
// validation secret, followed by 24 check bits that the right secret turns into zeros. So
// without the secret every entry looks uniformly random (winners cannot be told from
// losers, even with every barcode of the unsold packs), and a wrong secret is accepted
// with probability at most 2^-24. Two entries are packed in 7 bytes: a full block of
// 12,000,000 tickets takes 42,000,000 bytes of entries.
//
// The reader maps the file into memory and checks the signature, the hash tree and every
// entry chunk before it answers anything. The package imports nothing from drivers/,
// device/ or firmware/ (SPEC §3).
package ledger
