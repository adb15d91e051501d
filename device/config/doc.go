// Package config reads the terminal's configuration, one TOML file (docs/config.md lists
// every key with its default): the terminal's identity, the retailer's payment limits
// (euros in the file, cents here), the board profile and pin overrides, the scanner's and
// printer's devices, the data directory, the trusted keys, the display, the language, the
// technician token's hash, the HTTP listener and the fleet server. Parse reports every
// problem at once, each with its line, for `posd --check-config`: unknown keys (with the
// nearest known one), wrong types, values out of range and the rules between keys, in
// English for the technician. Load reads a regular file only, bounded in size. Encode
// writes the effective configuration back, and Redacted hides the token hash for logs.
// The file is decoded by github.com/pelletier/go-toml/v2, whose parser keeps the position
// of every key.
package config
