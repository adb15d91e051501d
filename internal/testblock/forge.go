package testblock

import (
	"crypto/ed25519"
	"encoding/binary"
	"fmt"
	"os"

	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/ledger"
)

// ForgeEntry rewrites in place (same file, no rename: a reader's mapping sees it at once)
// the entry of ticket id in the ledger file at path, so that the validation code of id with
// secret opens to tier: what a retailer who is root on the terminal can do to the installed
// ledger with the code of one of their own scratched tickets. Only the entry changes, not
// the hash tree nor the signature.
func ForgeEntry(path string, id codes.TicketID, secret [codes.SecretSize]byte, tier uint8) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	var head [29]byte
	if _, err := f.ReadAt(head[:], 0); err != nil {
		return fmt.Errorf("testblock: forge: header: %w", err)
	}
	i := int64(id.Pack)*int64(head[28]) + int64(id.Position) - 1
	off := int64(binary.BigEndian.Uint32(head[20:])) + ed25519.SignatureSize + i/2*ledger.PairSize
	pair := make([]byte, ledger.PairSize)
	if _, err := f.ReadAt(pair, off); err != nil {
		return fmt.Errorf("testblock: forge: entry: %w", err)
	}
	e := ledger.Seal(id, secret, tier)
	if i%2 == 0 {
		pair[0] = e.Tier<<4 | pair[0]&0x0f
		binary.BigEndian.PutUint64(pair[1:9], e.Check)
	} else {
		pair[0] = pair[0]&0xf0 | e.Tier
		binary.BigEndian.PutUint64(pair[9:17], e.Check)
	}
	if _, err := f.WriteAt(pair, off); err != nil {
		return fmt.Errorf("testblock: forge: %w", err)
	}
	return nil
}
