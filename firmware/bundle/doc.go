// Package bundle reads and writes firmware bundles: a signed manifest followed by the
// payload files, so that a terminal verifies a bundle while it streams in (docs/firmware.md).
//
//	"PTFWBNDL"                 8 bytes, magic
//	manifest length            uint32 big-endian, 2 .. MaxManifestSize
//	manifest                   JSON (Manifest), unknown fields refused
//	key id                     8 bytes: first 8 bytes of SHA-256 of the firmware public key
//	signature                  64 bytes, Ed25519 over SignedMessage (all zero: unsigned)
//	payload                    each file of the manifest, in order, exactly its size
//
// The signature covers the manifest, and the manifest the size and SHA-256 of every file,
// so a reader checks the signature once the header is in and each file's hash as the file
// streams past (Reader.Read reports a mismatch at the file's end, before io.EOF). Versions
// are MAJOR.MINOR.PATCH, compared numerically. File types are a closed set (FileType);
// sizes are bounded per type and the manifest itself is bounded, so no input makes a reader
// buffer or read without end.
package bundle
