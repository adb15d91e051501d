// Package firmware will hold the terminal's software updates (SPEC §8): signed bundles
// (a manifest with version, target and hashes, signed with the Ed25519 firmware key, not
// the ledger key), installation to the inactive of two slots while hashing, an atomic
// switch, a trial boot committed when healthy and rolled back after failed starts, and
// the technicians' flashing protocol. It knows nothing of retail. Nothing is implemented
// yet: the issue that builds it adds the code and its tests here.
package firmware
