// Package slot keeps the terminal's two firmware slots, A and B, under one root directory,
// installs bundles into the inactive one and picks the slot to boot (docs/firmware.md).
//
//	ROOT/state       which slot is active, the fallback slot, trial flag and boot count,
//	                 the anti-rollback high-water mark (JSON, replaced atomically)
//	ROOT/highwater   a second copy of the high-water mark
//	ROOT/a, ROOT/b   the slots: the bundle's files by name and .header (the signed header)
//
// Install streams a bundle into the inactive slot through the bundle reader's hashes,
// fsyncs each file and the directories, raises the high-water mark, then switches the
// state file (write temporary, fsync, rename, fsync directory) to the new slot on trial.
// Boot, run by the launcher at each start, counts trial starts and brings the previous
// slot back after MaxBoots starts that never reached MarkGood; it also checks the slot's
// files against its header and falls back when they do not match. Every step is
// persisted before the next risky one, so power lost at any point leaves a bootable slot.
package slot
