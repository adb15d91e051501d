// Package fleet is the terminal's side of the operator's fleet on NATS JetStream
// (docs/fleet.md): it publishes the journal's records to the JOURNAL stream on
// journal.<terminal>.<kind>, each with its record id as message id so that a record sent
// twice is stored once, and catches up in order after being offline; it claims a ticket
// fleet-wide before it is paid (one create-only key per ticket, through the operator's
// claim service, so that a terminal can only claim as itself, with the ticket's
// validation code, which the service checks against the operator's ledger); it claims the payouts
// made offline once it reconnects and writes every conflict the fleet reports into the
// journal; and it fetches the retailer's signed pack status list and installs it as
// posctl status install does.
//
// The operator's side (embedded server, claim service) is in device/fleet/server; the
// protocol between them (subjects, messages) is here.
package fleet
