// Package retail holds what the terminal says to the retailer, decided once: the French
// text of every outcome laid out for a 16×2 or 20×4 panel (Layout never cuts a word or an
// amount: a text that does not fit is an error, caught by a test of every screen on both
// sizes), money written the way receipts and screens write it ("12,50 €"), the signal
// (LED and beep) of each outcome, and the verdict on a validation code against a ledger
// and a pack status list with its French reason. It knows no hardware: the state machine
// (device/terminal), the technicians' display test (device/diag) and posctl use it.
package retail
