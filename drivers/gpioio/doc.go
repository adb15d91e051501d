// Package gpioio drives the terminal's simple GPIO parts: the green and red LEDs, the
// buzzer (beep patterns), the cash-drawer solenoid (one timed pulse), the OK and CANCEL
// buttons (debounced press and release events) and the tamper switch (every edge latched,
// so none is lost while the terminal is busy).
//
// Each part takes a periph gpio.PinOut or gpio.PinIn that the caller configured (board
// profiles live in device/board); inputs are watched with In(pull, BothEdges) and
// WaitForEdge with explicit timeouts (the ioctl driver treats 0 as "forever", so no zero
// or -1 timeouts here), in a Run(ctx) loop that returns when ctx is cancelled. Time comes
// from an injectable clockwork clock, logs go to an injected slog.Logger (InputOpts.Logger).
// The GPIO fake for tests (pins, contacts, a virtual clock) is drivers/gpiosim.
package gpioio
