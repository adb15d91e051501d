package main

import (
	"context"
	"errors"

	"github.com/spf13/cobra"

	"github.com/packterm/pos/drivers/scanner"
	"github.com/packterm/pos/drivers/serialport"
)

// listenInput is where `scanner listen` reads: a serial port (--port) or a USB keyboard
// scanner through evdev (--input, with its --keymap).
type listenInput struct {
	input, keymap string
}

func (in *listenInput) add(c *cobra.Command) {
	c.Flags().StringVar(&in.input, "input", "", "USB keyboard scanner: its /dev/input/by-id name or path (read through evdev, grabbed); or a recorded event file")
	c.Flags().StringVar(&in.keymap, "keymap", "us", "keyboard layout the keyboard scanner is set to: us (QWERTY) or fr (AZERTY)")
}

// listenPort is what the listen loop reads.
type listenPort interface {
	Next(ctx context.Context) (serialport.Packet, error)
	Path() string
	Close() error
}

// open opens the serial port, or the keyboard scanner when --input is given.
func (in *listenInput) open(port string, baud int) (listenPort, error) {
	switch {
	case in.input != "" && port != "":
		return nil, errors.New("scanner: give --port or --input, not both")
	case in.input == "" && port == "":
		return nil, errors.New("scanner: give --port (serial scanner) or --input (keyboard scanner)")
	case port != "":
		return serialport.Open(serialport.Config{Path: port, Baud: baud})
	}
	km, err := scanner.ParseKeymap(in.keymap)
	if err != nil {
		return nil, err
	}
	path, err := scanner.ResolveInput(in.input, "")
	if err != nil {
		return nil, err
	}
	return scanner.NewKeyboard(scanner.KeyboardConfig{Input: path, Keymap: km})
}
