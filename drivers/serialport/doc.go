// Package serialport is the serial line layer under the scanner and printer drivers.
//
// It opens a device with github.com/tarm/serial (path, baud and read timeout from Config) and
// keeps it open: a background reader hands received bytes to the consumer, notices when the
// device disappears (USB unplugged: the device node vanishes, reads return at once or fail,
// writes fail with EIO), closes it, retries with exponential backoff on an injectable
// clockwork.Clock, and resumes reading as soon as the device is back, so that nothing the device
// sends after reconnection is lost.
//
// tarm/serial pitfalls handled here (docs/field-notes.md): a read timeout returns
// (0, io.EOF), which means "no data yet", never end of stream; Close blocks until a pending Read
// returns, so a read timeout is always set (VTIME granularity: 0.1 s to 25.5 s) and only the
// reader goroutine ever reads or closes the underlying port.
package serialport
