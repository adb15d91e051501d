// Package edkey holds what the project's Ed25519 key files have in common, whoever reads
// them: the operator's ledger keys (validate/ledger), the journal's device keys
// (validate/journal) and the firmware signing keys (firmware/fwkey). A key file is one
// line, "TYPE BASE64 COMMENT\n", where TYPE names the family and whether the key is
// public (32 bytes) or private (its 32-byte seed); a Family says which TYPE words it
// reads and how it names itself in errors. Files are read only when regular
// (internal/regularfile: a FIFO or a device never blocks a reader), at most MaxFileSize
// bytes; a private key file others may read is refused, as ssh does. A Set is a family's
// trusted public keys by ID (the first 8 bytes of the key's SHA-256); an empty Set trusts
// nothing.
package edkey
