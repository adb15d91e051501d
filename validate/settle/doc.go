// Package settle is the operator's after-the-fact proof of the fleet's journals
// (docs/fleet.md, "Settlement").
//
// Settle proves every payout record: Truth rebuilds each block's plan once from its
// recorded seed (the manifest) and its game definition (the design and the placement of
// packs, as the generation made them), and derives each paid ticket's prize
// (block.Plan.Prize) and secret (block.Seed.Secrets). A payout is proven when its block
// has a manifest and holds the ticket, its code is the ticket's true code, its amount is
// the ticket's prize, the fleet's claims bucket holds the ticket for the paying terminal,
// no other payout record pays the ticket and its record id has one content. Otherwise it
// is flagged with every reason (loser paid, inflated or wrong amount, wrong code, unknown
// ticket, not claimed, conflict, fork), its terminal and record; the totals are split
// into proven and flagged. This catches a retailer who pays, through their own terminal,
// a losing ticket or inflates a winner with the ticket's real code, and a forged payout
// even if a terminal's ledger was broken.
//
// CheckRecords is the fleet's witness after the fact (docs/fleet.md, "The fleet is the
// witness"): every record signed by its terminal's registered device key, none unsigned
// once the key is registered, each chained to the record before it the fleet holds;
// Settle WithWitness flags a payout on a record that fails (unsigned, bad-signature,
// rechained, no-device-key) and makes each failure a finding of the settlement.
//
// Build and BuildSettled sum the records per retailer and per block (sales, payouts and
// how many of them are flagged, claims above the limit, unconfirmed payouts, conflicts)
// and list conflicts, gaps, forks and unregistered terminals; CheckClaims compares the
// claims bucket with the payouts; DistinctConflicts shows each entry of the conflicts
// bucket once. Every result has a stable JSON form (posctl fleet report/settle --json).
//
// It works on decoded journal records and imports nothing from drivers/, device/ or
// firmware/, nor any messaging library.
package settle
