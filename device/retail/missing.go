package retail

import (
	"strings"

	"github.com/packterm/pos/device/locale"
)

// Missing is what a terminal lacks to validate and sell because it was never installed
// (installed but refused is DataRefusedScreen). Whoever loads the data decides it (the
// daemon, device/daemon); the terminal only says it at rest (MissingScreen), instead of
// SCANNEZ UN CODE, so that a technician at a fresh terminal sees what to provision.
type Missing uint8

// What a terminal may lack, in the order a technician provisions them.
const (
	// MissingOperatorKeys: no operator key is trusted, so nothing signed can be checked;
	// the first keys come with the image or a firmware bundle, never over the link.
	MissingOperatorKeys Missing = 1 << iota
	// MissingLedger: no block ledger is installed: nothing is validated nor sold.
	MissingLedger
	// MissingStatus: no pack status list is installed: no pack is sold (each counts as
	// not delivered).
	MissingStatus

	// AllMissing is every item: a terminal fresh from its image without keys.
	AllMissing = MissingOperatorKeys | MissingLedger | MissingStatus
)

// missingItems are the items with their names: in logs, and in the locale in three
// lengths (full, short, shortest) for the panel sizes.
var missingItems = []struct {
	m    Missing
	name string
	key  locale.Key
}{
	{MissingOperatorKeys, "operator keys", "install.keys"},
	{MissingLedger, "ledger", "install.ledger"},
	{MissingStatus, "pack status list", "install.status"},
}

// String names the missing items in English for logs ("ledger, pack status list"; "" when
// nothing is missing).
func (m Missing) String() string {
	var names []string
	for _, it := range missingItems {
		if m&it.m != 0 {
			names = append(names, it.name)
		}
	}
	return strings.Join(names, ", ")
}

// MissingScreen says at rest what the terminal lacks: "À INSTALLER : | REGISTRE |
// APPELEZ UN TECHNICIEN", each missing item named, shorter names on smaller panels. A
// terminal that lacks only its pack status list still validates tickets: it keeps
// SCANNEZ UN CODE and adds what to install.
func MissingScreen(m Missing) Screen {
	if m == MissingStatus {
		return say("to_install.status_only")
	}
	var full, short, shortest locale.List
	for _, it := range missingItems {
		if m&it.m != 0 {
			full = append(full, it.key)
			short = append(short, it.key+".short")
			shortest = append(shortest, it.key+".shortest")
		}
	}
	return say("to_install", full, short, shortest)
}
