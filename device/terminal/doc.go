// Package terminal is the retail state machine of the pack terminal (docs/terminal.md): an
// explicit machine in which each state runs until something happens and returns the next
// state (Mender style). It sells packs, answers ticket and validation codes, pays winners
// within the retailer's limits (journal durable first, then the receipts, the drawer and
// the green LED), prints claim receipts above them, reprints, prints the end-of-day report,
// locks on tamper until a technician unlocks (a lock that outlives restarts), throttles
// repeated forged codes, and waits out printer, scanner and display faults (a panel read back
// through its R/W line) without ever losing or doubling a recorded payout. Each code and pack
// is answered by its own block's ledger (ledger.Set).
//
// Hardware is reached through small interfaces (Screen, Printer, LED, Buzzer, Drawer,
// TamperSwitch) that the real drivers implement; inputs arrive as Events (Send). The
// decisions and texts come from device/retail and device/codemap; the journal is
// validate/journal.
package terminal
