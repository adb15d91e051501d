// Package flash is the maintenance link between a technician's posctl and a terminal: a
// framed, acknowledged, resumable transfer over any byte stream (a serial cable or TCP)
// that installs firmware bundles through firmware/slot and provisioning files (config,
// operator keys, ledger, pack status list) through per-kind verifiers (docs/firmware.md).
//
// Frame: sync 0xF7 0x5A, type (1 byte), length (uint16 BE, at most MaxPayload), payload,
// CRC-32C (Castagnoli) of type, length and payload (uint32 BE). A frame with a bad CRC is
// dropped and the reader resynchronises on the next sync bytes; the sender's timeout and
// retransmission recover the loss.
//
// A session: Hello (technician token) → HelloOK; Begin (kind, size, SHA-256) → Resume
// (offset the terminal already holds durably); Data (offset, bytes) → Ack (next offset),
// one chunk in flight; End → Done (what was installed) or Error. The terminal keeps a
// partial transfer in its spool directory with the offset it synced, so after a pulled
// cable the host reconnects, says Hello and Begin again, and continues from that offset.
// The token is compared as a SHA-256 in constant time; a firmware bundle's header is
// checked (trusted firmware key, target, anti-rollback) as soon as it has arrived, so a
// wrong bundle is refused within its first kilobytes, not after the whole transfer.
package flash
