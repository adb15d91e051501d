// Package retail holds what the terminal says to the retailer, decided once: which text
// (device/locale holds the words of every language) each outcome shows, laid out for a
// 16×2 or 20×4 panel (Layout never cuts a word or an amount: a text that does not fit is
// an error, caught by a test of every screen in every language on both sizes), the signal
// (LED and beep) of each outcome, and the verdict on a validation code against a ledger
// and a pack status list with its reason. It knows no hardware: the state machine
// (device/terminal), the technicians' display test (device/diag) and posctl use it.
package retail
