// Package firmware is the terminal's software update side (SPEC §8, docs/firmware.md); it
// knows nothing of retail. Its packages: fwkey (firmware signing keys, distinct from the
// ledger keys), bundle (signed manifest then payload, verified while streaming), slot (A/B
// slots, atomic switch, trial boot, rollback, anti-rollback), watchdog (sd_notify), flash
// (the technicians' maintenance link with resume) and flash/flashserial (that link on a
// serial port). cmd/posboot is the launcher that boots a slot.
package firmware
