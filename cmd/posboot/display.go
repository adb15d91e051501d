package main

import (
	"fmt"

	"github.com/packterm/pos/device/board"
)

// showOn returns the show function of env: open the board the configuration describes
// (board.Open: the same driver and wiring as posd), light the red LED and put the lines on
// the display. The board is left as it is (not Close, which turns the panel off): the
// HD44780 keeps its text while powered after posboot exits.
func showOn(open func(board.Config) (*board.Board, error)) func(c *bootConfig, lines ...string) error {
	return func(c *bootConfig, lines ...string) error {
		b, err := open(c.Board)
		if err != nil {
			return err
		}
		if err := b.Red.Set(true); err != nil {
			return fmt.Errorf("posboot: red LED: %w", err)
		}
		if err := b.Display.Show(lines...); err != nil {
			return fmt.Errorf("posboot: display: %w", err)
		}
		return nil
	}
}
