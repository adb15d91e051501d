// Package device is where drivers and decisions meet: the terminal itself. Its
// sub-packages hold the board profiles and wiring (board), the technicians' hardware
// walk-throughs (diag), the configuration (config), the retailer's French texts and
// verdicts (retail), the mapping of symbologies to code kinds (codemap), the retail state
// machine (terminal), the whole terminal on emulated hardware (emulated) and on a board
// (daemon).
package device
