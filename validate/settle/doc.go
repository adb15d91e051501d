// Package settle is the operator's after-the-fact check of the fleet's journals
// (docs/fleet.md): Forgeries re-derives each paid ticket's secret from its block's
// recorded seed (the manifest) and lists every payout whose validation code is not the
// ticket's true code, which catches a forged payout even if a terminal's ledger was
// broken; Build sums the records per retailer and per block (sales, payouts, claims
// above the limit, unconfirmed payouts, conflicts) and lists conflicts and gaps.
//
// It works on decoded journal records and imports nothing from drivers/, device/ or
// firmware/, nor any messaging library.
package settle
