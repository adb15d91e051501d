// Package decide is the one place where the terminal decides what a validation code gets:
// pay, claim (a claim receipt for a payment centre, nothing paid) or refuse, and why.
//
// It is pure: Decide reads its Input and nothing else (no journal, no ledger, no clock, no
// network). The callers gather the facts — the ledger's verdict and the pack status list
// (device/retail.JudgeCode), the journal's facts and the limits (device/terminal), the
// fleet's answer to the claim (device/fleet.Answer) — and act on the Decision: the
// terminal shows the screen of the Reason, records and pays. The words shown for a
// reason belong to the screens (device/retail), not here; Reason.String is a stable
// machine name, the one written to the journal's refusal records.
//
// The journal's own duplicate check (journal.Append fails with ErrDuplicatePayout when a
// payout's ticket is already in its paid index) is not a decision: it is the journal's
// storage invariant, the guard that no caller can record a ticket paid twice whatever it
// decided. Decide refuses a ticket paid here (PaidHere) before anything is recorded.
package decide
