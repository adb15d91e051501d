// Package zxdecode is a scanner.ImageDecoder built directly on gozxing (Code 128, ITF, QR),
// for the scanner's tests until the terminal wires in package barcode; it is a real decoder,
// not a fake.
package zxdecode
