// Package daemon assembles the terminal on a board from its configuration (device/config):
// the board's GPIO parts per profile (device/board), the serial scanner and printer, the
// installed ledger and pack status list of the data directory, the journal, and runs the
// retail state machine (device/terminal) until its context ends. cmd/posd only wires flags
// and signals to it.
package daemon
