// Package device is where drivers and decisions meet: the terminal itself. Its
// sub-packages hold the board profiles and wiring (board), the technicians' hardware
// walk-throughs (diag), and, to come, the retail state machine, receipts and display
// texts, and configuration.
package device
