// Package fleettest holds what the fleet's tests share across packages (device/fleet,
// device/daemon): a TCP proxy that partitions a terminal from its server and heals it
// again, the operator's stores and claim service run for the length of a test, and a
// small signed block ledger (Block) with status lists for the claim service to check
// claims against. Like
// net/http/httptest, it is imported by tests only.
package fleettest
