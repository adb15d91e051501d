//go:build production && !virt

package main

import (
	"io"

	"github.com/packterm/pos/device/board"
)

// A production build has no emulated board (Board.Emulator is always nil): posctl's
// display and io tests drive the real board only.

func emulatedScreen(io.Writer, *board.Board, bool) {}

func emulatedErrors(*board.Board) []error { return nil }

func emulatedPress(*board.Board) func(board.Contact) { return nil }

func emulatedPins(io.Writer, string, *board.Board) {}
