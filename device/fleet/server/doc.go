// Package server is the operator's side of the fleet (docs/fleet.md): an embedded NATS
// server with JetStream (file storage; single node for a small operator, or one node of
// an in-process cluster in tests), the registry of terminals and their nkeys, from which
// each terminal's permissions are derived, and the claim service that turns a
// terminal's claim request into a create-only write in the claims bucket, records
// conflicts, and hands out status lists. It also reads the journal stream back for the
// report and settlement.
package server
