// Package ledger is the terminal's signed block ledger (SPEC §5, docs/ledger.md): one
// fixed-size sealed entry per ticket of a block, a header that carries the game definition
// and a two-level hash tree over the entries, signed with Ed25519 by the operator; the
// pack status list of one retailer (packs delivered here, packs void or stolen), signed
// and versioned the same way; the operator's key files; and the trust rules of the
// terminal, which pins operator public keys and fails closed.
//
// An entry (format 2) is 68 bits: the ticket's tier (4 bits, 0 = losing ticket, k = k-th
// line of its game's prize table) and 64 check bits, XORed with a pad from the SP 800-56C
// one-step KDF over SHA-256 of the ticket's 80-bit validation secret, a label, the block
// and the ticket's index; the right secret turns the check into zeros. Without the secret
// every entry looks uniformly random (winners cannot be told from losers, even with every
// barcode of the unsold packs); a wrong secret is accepted with probability at most
// 2^-64, and since the pad binds the ticket, an offline search of a copied ledger costs
// 2^64 pad evaluations for any one ticket as for any ticket of the block. Two entries
// are packed in 17 bytes: a full block of 12,000,000 tickets takes 102,000,000 bytes of
// entries. Format 1 files (24 check bits) are refused: the block must be regenerated.
//
// A terminal decides with a Set, one ledger per block installed: each code is answered by
// its own block's ledger.
//
// OpenFile maps the installed ledger and turns a fault of a file truncated under the
// mapping into ErrFault. Nothing a decision uses is read from the file unchecked: the
// header and the hash tree are held in memory from open, and every lookup copies its
// entry's segment out of the mapping and checks it against the segment hashes computed at
// open from the verified bytes (ErrTampered when the file was rewritten in place since,
// segments.go). Files from elsewhere are read with plain reads (ReadFile,
// VerifyFile, InspectFile). Every reader refuses what is not a regular file before
// reading it, and Install checks a private copy of its source, never the source itself.
// The package imports nothing from drivers/, device/ or firmware/ (SPEC §3).
package ledger
