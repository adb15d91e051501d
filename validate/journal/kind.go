package journal

import "fmt"

// Kind is what a record records. Its String form is stable: exports and fleet subjects use it.
type Kind uint8

// The kinds of record (values are stored: never renumber).
const (
	KindSale          Kind = iota + 1 // a pack sold (Ticket.Position == 0: the pack itself)
	KindPayout                        // a winning ticket paid here (Code holds the full validation code)
	KindClaim                         // a winner above the pay limit: claim receipt printed, nothing paid
	KindRefused                       // a refused validation (Reason; ticket identity when known; never the code)
	KindReprint                       // a receipt reprinted (DUPLICATA)
	KindReport                        // an end-of-day report printed
	KindTamper                        // tamper switch opened: terminal locked
	KindUnlock                        // technician unlock
	KindLock                          // validation locked after repeated forged codes (Reason, lock duration in Detail)
	KindLedgerInstall                 // a ledger installed (Detail: block, version)
	KindStatusInstall                 // a pack status list installed
	KindConfigChange                  // configuration changed (Detail)
	KindConflict                      // a ticket paid here and at another terminal while apart (fleet; see conflict.go)
	KindReset                         // the first record of a journal started afresh by a technician (Reset: who, the last record seen before, the evidence)
	KindTokenRefused                  // a wrong technician token at a locked terminal (Detail: the state and the input; never the token)
	kindEnd
)

var kindNames = [...]string{
	KindSale:          "sale",
	KindPayout:        "payout",
	KindClaim:         "claim",
	KindRefused:       "refused",
	KindReprint:       "reprint",
	KindReport:        "report",
	KindTamper:        "tamper",
	KindUnlock:        "unlock",
	KindLock:          "lock",
	KindLedgerInstall: "ledger-install",
	KindStatusInstall: "status-install",
	KindConfigChange:  "config-change",
	KindConflict:      "conflict",
	KindReset:         "journal-reset",
	KindTokenRefused:  "token-refused",
}

// Valid reports whether k is one of the kinds above.
func (k Kind) Valid() bool { return k >= KindSale && k < kindEnd }

// String is the kind's stable lowercase name ("sale", "payout", ...).
func (k Kind) String() string {
	if k.Valid() {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// ParseKind is the inverse of String.
func ParseKind(s string) (Kind, error) {
	for k := KindSale; k < kindEnd; k++ {
		if kindNames[k] == s {
			return k, nil
		}
	}
	return 0, fmt.Errorf("journal: unknown record kind %.20q", s)
}
