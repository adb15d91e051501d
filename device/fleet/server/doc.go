// Package server is the operator's side of the fleet (docs/fleet.md): an embedded NATS
// server with JetStream (file storage; single node for a small operator, or one node of
// an in-process cluster in tests), the registry of terminals and their nkeys, from which
// each terminal's permissions are derived, and the claim service that checks a
// terminal's claim (its rate limit, the validation code against the operator's verified
// block ledgers, the pack delivered to the terminal's retailer per its signed status
// list, the ledger's amount), records every refusal in the REFUSALS stream, turns the
// claim into a create-only write in the claims bucket, records conflicts, and hands out
// status lists; and the witness, which checks every journal record as it arrives against
// its terminal's registered device key and the chain the fleet holds, records each
// failure in the REFUSALS stream and has the service refuse that terminal's claims. It
// also reads the journal and refusals streams back for the operator.
package server
