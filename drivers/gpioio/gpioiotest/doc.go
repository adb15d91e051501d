// Package gpioiotest provides fake buttons and switches for tests and emulation: periph
// gpiotest pins whose edges a test produces with Press, Release and Bounce.
package gpioiotest
