// Package image seals and verifies a whole disk image (scripts/image.sh's
// dist/pos-arm64.img) the way a bundle is signed: a manifest (version, target, size and
// SHA-256 of the image) signed by a firmware key over a context string of its own, so an
// image signature means nothing as a bundle's and the reverse. The seal lives inside the
// image, in the gap between the partition table and the first partition (bytes 4096 to
// 8191), so the file written to a card carries it, and a card read back verifies too.
// The image's hash is taken with the seal's bytes as zeros.
package image
