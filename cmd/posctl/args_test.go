package main

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// Every command that runs says, on a wrong argument count, what it was given and its
// usage line.
func TestWrongArgumentCountShowsUsage(t *testing.T) {
	var leaves []*cobra.Command
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			if sub.Name() == "help" || sub.Name() == "completion" {
				continue
			}
			if sub.Runnable() && !sub.HasSubCommands() {
				leaves = append(leaves, sub)
			}
			walk(sub)
		}
	}
	walk(root)
	if len(leaves) < 20 {
		t.Fatalf("only %d commands found", len(leaves))
	}
	for _, c := range leaves {
		path := strings.Fields(commandName(c))
		args := append(path, "a1", "a2", "a3", "a4", "a5", "a6")
		_, err := run(t, args...)
		if err == nil {
			t.Errorf("%v accepted", args)
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, "wrong arguments") || !strings.Contains(msg, "usage: "+c.UseLine()) {
			t.Errorf("%v: %q lacks the count and the usage line", args, msg)
		}
	}
	_, err := run(t, "game", "play", "7")
	if want := "game play: wrong arguments: accepts 2 arg(s), received 1\nusage: posctl game play GAME LOT"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("game play 7: %v, want %q…", err, want)
	}
}

// A number that is not one, or out of its range, is named with its range, whether it
// is an argument or a flag.
func TestBadNumbersNameTheirRange(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"game", "play", "seven", "50"}, `game "seven" is not a number: want a whole number from 1 to 8`},
		{[]string{"game", "play", "9", "50"}, `game 9 is out of range: want 1 to 8`},
		{[]string{"game", "play", "7", "cinquante"}, `lot: money: "cinquante": want euros with a decimal comma`},
		{[]string{"code", "render", "validation", "0", "1", "3", "--out", "v.png"}, `block 0 is out of range: want 1 to 9999`},
		{[]string{"code", "render", "ticket", "42", "1500000", "3", "--out", "v.png"}, `pack 1500000 is out of range: want 0 to 1499999`},
		{[]string{"code", "render", "ticket", "42", "7", "x", "--out", "v.png"}, `position "x" is not a number: want a whole number from 1 to 8`},
		{[]string{"code", "render", "pack", "4x", "7", "--out", "v.png"}, `block "4x" is not a number: want a whole number from 1 to 9999`},
		{[]string{"status", "gen", "--key", "k", "--retailer", "1", "--version", "1", "--out", "l", "--void", "42:5-x"}, `last pack "x" is not a number`},
		{[]string{"status", "gen", "--key", "k", "--retailer", "1", "--version", "1", "--out", "l", "--void", "99999:5"}, `block 99999 is out of range: want 1 to 9999`},
		{[]string{"ledger", "gen", "--key", "k", "--block", "seven", "--out", "o"}, `block "seven" is not a number: want a whole number from 1 to 9999`},
		{[]string{"ledger", "audit", "--pub", "k", "--block", "10000", "o"}, `block 10000 is out of range: want 1 to 9999`},
		{[]string{"scanner", "listen", "--port", "p", "--count", "many"}, `--count "many" is not a number: want a whole number`},
		{[]string{"status", "gen", "--key", "k", "--retailer", "-1", "--version", "1", "--out", "l"}, `--retailer "-1" is not a number: want a whole number from 0 to 4294967295`},
	} {
		_, err := run(t, c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q", c.args, err, c.want)
		}
		if err != nil && strings.Contains(err.Error(), "strconv") {
			t.Errorf("%v: %v shows the parser's words", c.args, err)
		}
	}
}

func TestNumberFlagKeepsItsDefault(t *testing.T) {
	if _, err := run(t, "ledger", "audit", "--pub", "missing.pub", "--block", "0", "o"); err == nil || strings.Contains(err.Error(), "--block") {
		t.Errorf("--block 0 (the default, any block) refused: %v", err)
	}
}
