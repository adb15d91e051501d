// Package fleettest holds what the fleet's tests share across packages (device/fleet,
// device/daemon): a TCP proxy that partitions a terminal from its server and heals it
// again, and the operator's stores and claim service run for the length of a test. Like
// net/http/httptest, it is imported by tests only.
package fleettest
