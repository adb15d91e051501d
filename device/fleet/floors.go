package fleet

import (
	"github.com/packterm/pos/device/floors"
)

// Floors from the fleet (docs/fleet.md, "Floors from the fleet"). The fleet holds every
// install record the terminal published (its JOURNAL stream, whatever the journal's
// epoch). At each connection's head request the client asks for the floors they make
// (HeadRequest.Floors): the newest pack status list, ledger of each block, operator key,
// operator limits and firmware key statement installed (floors.Floors). It keeps them in
// its state file, raised only, and the terminal holds its installed data to them as to its
// journal's: a data directory put back from an earlier copy, journal and files together,
// or a journal started afresh, is still held to what the terminal installed since.

// Floored is a Claimer that knows the fleet's install floors (*Client).
type Floored interface {
	// InstallFloors are the newest versions the fleet found in the install records the
	// terminal published (none before its first answer, or offline since the state file
	// was made).
	InstallFloors() floors.Floors
}

var _ Floored = (*Client)(nil)

// maxHeadReply bounds a head reply: its floors name up to MaxLedgerFloors blocks.
const maxHeadReply = 64 << 10

// MaxLedgerFloors bounds the blocks a head reply's floors name.
const MaxLedgerFloors = 2000

// InstallFloors: see Floored.
func (c *Client) InstallFloors() floors.Floors {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.state.Floors.Clone()
}

// raiseFloors takes in the fleet's floors from a head reply: raised only, kept in the
// state file when they went up.
func (c *Client) raiseFloors(f *floors.Floors) error {
	if f == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.state.Floors.Raise(*f) {
		return nil
	}
	c.log.Info("fleet: install floors from the fleet", "status", c.state.Floors.Status,
		"ledgers", len(c.state.Floors.Ledgers), "operator_keys", c.state.Floors.OperatorKeys,
		"limits", c.state.Floors.Limits, "firmware_keys", c.state.Floors.FirmwareKeys)
	return c.state.save()
}
