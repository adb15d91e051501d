// Package codes defines the three codes of the pack terminal (SPEC §4, docs/codes.md):
// the pack code printed as Code 128 on the pack sleeve, the ticket code printed as
// Interleaved 2 of 5 on each ticket's back, and the validation code printed as a QR code
// (with a grouped manual-entry form) under the scratch latex. Each carries a check
// character that detects every single-character error and every adjacent transposition:
// the Damm algorithm for the decimal codes, and a Damm-style quasigroup over GF(32) for the
// base-32 validation code. The package formats codes as a scanner delivers them, parses
// scanner text (trailing CR/LF, optional AIM symbology identifier, manual entry with or
// without dashes and spaces, any letter case) and reports every rejection with a precise,
// typed error. It knows nothing of scanners or images (SPEC §3).
package codes

// Game facts used by the codes (règlement, articles 2 and 4.1). The validate/game package
// will own them; they are repeated here so that codes stays free of that dependency.
const (
	// TicketsPerPack is the number of tickets in a pack; ticket position k is game k.
	TicketsPerPack = 8
	// PacksPerBlock is the number of packs in a block. Packs are numbered from 0 to
	// PacksPerBlock-1 within their block (0-based, so that ticket index = pack·8 + position-1).
	PacksPerBlock = 1_500_000
	// MinBlock and MaxBlock bound block numbers: four decimal digits, block 0 is never issued
	// (a zero value is never a valid code).
	MinBlock = 1
	MaxBlock = 9999
	// SecretSize is the size in bytes of a validation code's random secret (80 bits).
	SecretSize = 10
)
