package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/packterm/pos/validate/codes"
)

// Argument errors say what was expected. A wrong argument count or a bad flag names the
// command and ends with its usage line, for every command: explainArgs wraps each
// command's argument check once, before the first one runs. A number read from the
// command line goes through numberArg or numberVar, which name the number and its range.

func init() {
	var once sync.Once
	cobra.OnInitialize(func() { once.Do(func() { explainArgs(root) }) })
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return usageError(c, explainFlag(err)) })
}

// explainFlag rephrases pflag's "invalid argument … strconv.ParseInt: parsing …" for a
// number flag defined without numberVar: which flag, and what it wants.
func explainFlag(err error) error {
	var bad *pflag.InvalidValueError
	var ne *strconv.NumError
	if !errors.As(err, &bad) || !errors.As(err, &ne) {
		return err
	}
	what := "is not a number"
	if errors.Is(ne.Err, strconv.ErrRange) {
		what = "is out of range"
	}
	want := "a whole number"
	if typ := bad.GetFlag().Value.Type(); strings.HasPrefix(typ, "uint") {
		bits, _ := strconv.Atoi(strings.TrimPrefix(typ, "uint"))
		if bits == 0 {
			bits = strconv.IntSize
		}
		want = fmt.Sprintf("a whole number from 0 to %d", uint64(1)<<bits-1)
	}
	return fmt.Errorf("--%s %q %s: want %s", bad.GetFlag().Name, bad.GetValue(), what, want)
}

// usageError is err about c's command line, with c's usage line.
func usageError(c *cobra.Command, err error) error {
	return fmt.Errorf("%s: %w\nusage: %s (posctl %s --help for more)", commandName(c), err, c.UseLine(), commandName(c))
}

// commandName is c's path without the root: "game play".
func commandName(c *cobra.Command) string {
	return strings.TrimPrefix(c.CommandPath(), root.Name()+" ")
}

// explainArgs wraps the argument check of c and its subcommands so that a wrong count
// says what was expected. A command that runs and has no check takes no arguments.
func explainArgs(c *cobra.Command) {
	if c.Name() == "help" || c.Name() == "completion" || strings.HasPrefix(c.Name(), "__") {
		return // cobra's own commands
	}
	for _, sub := range c.Commands() {
		explainArgs(sub)
	}
	check := c.Args
	if check == nil {
		if !c.Runnable() || c.HasSubCommands() {
			return // cobra reports an unknown subcommand itself
		}
		check = cobra.NoArgs
	}
	c.Args = func(c *cobra.Command, args []string) error {
		if err := check(c, args); err != nil {
			return usageError(c, fmt.Errorf("wrong arguments: %w", err))
		}
		return nil
	}
}

// number is a number given on the command line: its name in messages and its range.
type number struct {
	name     string
	min, max uint64
}

var (
	blockNumber    = number{"block", codes.MinBlock, codes.MaxBlock}
	packNumber     = number{"pack", 0, codes.PacksPerBlock - 1}
	positionNumber = number{"position", 1, codes.TicketsPerPack}
	gameNumber     = number{"game", 1, codes.TicketsPerPack} // position k holds game k
)

// unsigned are the integer types numbers are read into.
type unsigned interface {
	~uint8 | ~uint16 | ~uint32 | ~uint64
}

// numberArg reads s as n: a whole decimal number within n's range, or an error naming n
// and its range.
func numberArg[T unsigned](n number, s string) (T, error) {
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s %q is not a number: want a whole number from %d to %d", n.name, s, n.min, n.max)
	}
	if v < n.min || v > n.max || uint64(T(v)) != v {
		return 0, fmt.Errorf("%s %s is out of range: want %d to %d", n.name, s, n.min, n.max)
	}
	return T(v), nil
}

// numberVar defines a flag holding n in *p; its current value is the default, which
// the flag also accepts when it lies outside n's range (e.g. 0 for "unset").
func numberVar[T unsigned](fs *pflag.FlagSet, p *T, flag string, n number, usage string) {
	fs.Var(&numberValue[T]{p: p, n: n, def: *p}, flag, usage)
}

// numberValue is a pflag.Value read by numberArg.
type numberValue[T unsigned] struct {
	p   *T
	n   number
	def T
}

func (v *numberValue[T]) Set(s string) error {
	if s == strconv.FormatUint(uint64(v.def), 10) {
		*v.p = v.def
		return nil
	}
	x, err := numberArg[T](v.n, s)
	if err != nil {
		return err
	}
	*v.p = x
	return nil
}

func (v *numberValue[T]) String() string { return strconv.FormatUint(uint64(*v.p), 10) }
func (v *numberValue[T]) Type() string   { return "number" }
