// Package journal is the terminal's journal (SPEC §3, docs/journal.md): one record per
// sale, payout, claim, refused validation, reprint, report, tamper, unlock, lock and
// install, each with the terminal id, a per-terminal sequence number without gaps, the
// wall time, the ticket identity, the amount in cents, the receipt ids, and the hash of
// the previous record and its own, in a versioned canonical binary encoding.
//
// Records live in a bbolt file; Append returns only once bbolt's commit is fsynced, so a
// payout is durable before the drawer opens. In the same transaction it refuses a second
// payout of a ticket, updates the ticket index (paid already? when, where, which record,
// in O(1)), the pack-sale index and the day's totals. A checkpoint signed with the
// device's Ed25519 key (created at first start) covers the head and the day's totals,
// daily and on demand; Open verifies the chain from the last one, after checking the
// file's structure itself so that a damaged file never makes bbolt panic, and puts a
// journal it cannot verify in a read-only, no-payout state (Health). A payout record
// holds the full validation code as settlement evidence; no other record may hold one.
//
// The package imports nothing from drivers/, device/ or firmware/.
package journal
