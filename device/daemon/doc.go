// Package daemon assembles the terminal on a board from its configuration (device/config):
// the board's GPIO parts per profile (device/board), the serial or USB keyboard scanner (and
// a camera's photo drop directory, if any) and the printer, the installed ledgers (one per
// block) and pack status list of the data directory (data.go: any of them refused, none is
// used and the terminal says so, while the links below still run to repair it), the
// journal, and runs the retail state machine (device/terminal) until its context ends.
// Beside it run the maintenance link (maint.go: firmware and provisioning over
// firmware/flash, answering only to the technician token), the fleet client (fleet.go:
// journal publishing, claims, offline reconciliation, the retailer's status list), the
// service manager's READY and watchdog pings and the commit of a trial firmware slot
// (boot.go), and the restart that takes in what was installed while it ran (restart.go).
// cmd/posd only wires flags, environment and signals to it.
package daemon
