package terminal

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/device/locale"
	"github.com/packterm/pos/device/retail"
	"github.com/packterm/pos/drivers/display"
	"github.com/packterm/pos/drivers/gpioio"
	"github.com/packterm/pos/drivers/printer"
	"github.com/packterm/pos/drivers/printer/escpos"
	"github.com/packterm/pos/validate/journal"
	"github.com/packterm/pos/validate/ledger"
)

// Printer is what the terminal needs of the receipt printer; *printer.Printer implements it.
// Stage keeps receipts in its durable spool (not yet queued: Commit of the result queues
// them), failing with printer.ErrSpool when it cannot; Flush prints the queue: a
// *printer.FaultError means the receipts wait there and print at a later Flush.
type Printer interface {
	Stage(rs ...printer.Receipt) (*printer.Staged, error)
	CheckSpool() error
	Flush(ctx context.Context) (int, error)
	Pending() ([]printer.Spooled, error)
	Status(ctx context.Context) (escpos.Status, error)
}

// LED is a lamp; *gpioio.LED implements it.
type LED interface{ Set(on bool) error }

// Buzzer plays beeps; *gpioio.Buzzer implements it.
type Buzzer interface {
	Play(ctx context.Context, p gpioio.Pattern) error
}

// Drawer is the cash drawer; *gpioio.Drawer implements it.
type Drawer interface {
	Open(ctx context.Context) error
}

// TamperSwitch is the case switch; *gpioio.Tamper implements it.
type TamperSwitch interface {
	State() gpioio.TamperState
	Reset()
}

var (
	_ Printer      = (*printer.Printer)(nil)
	_ LED          = (*gpioio.LED)(nil)
	_ Buzzer       = (*gpioio.Buzzer)(nil)
	_ Drawer       = (*gpioio.Drawer)(nil)
	_ TamperSwitch = (*gpioio.Tamper)(nil)
)

// Parts are the terminal's devices.
type Parts struct {
	Screen     display.Screen
	Printer    Printer
	Green, Red LED
	Buzzer     Buzzer
	Drawer     Drawer
	Tamper     TamperSwitch // nil: no switch
}

// Config of the terminal.
type Config struct {
	Terminal     string // terminal id (printed on receipts)
	RetailerName string // printed on receipts
	// PerTicket and PerDay are the pay limits in cents: a winner above PerTicket, or one that
	// would take the day's payouts above PerDay, gets a claim receipt instead. They are
	// taken as given (device/config decides the defaults): 0 pays nothing over the counter.
	PerTicket, PerDay int64
	// StateDir holds the terminal's own small state (the last finished operation).
	StateDir string
	// UnlockTokenSHA256 is the SHA-256 (hex) of the technician's unlock token; empty turns
	// technician unlock off (a tamper lock then holds), unless OpenUnlock.
	UnlockTokenSHA256 string
	// OpenUnlock accepts any unlock when no token is set (the emulator).
	OpenUnlock bool
	// ResultTimeout: a result screen goes back to idle after it (0: 20 s).
	ResultTimeout time.Duration
	// OfferTimeout: an unanswered sale or payment offer is abandoned after it (0: 2 min).
	OfferTimeout time.Duration
	// PollInterval: how often a printer fault is retried (0: 2 s).
	PollInterval time.Duration
	// LongPress: a button held this long at rest asks for the report (OK) or a duplicate
	// (CANCEL) (0: 3 s).
	LongPress time.Duration
	// StatusPoll: how often the idle terminal asks the printer's status (0: 30 s).
	StatusPoll time.Duration
	// Throttle of forged codes (zero value: 5 within 10 min lock for 1 min, doubling, at most 24 h).
	Throttle Throttle
	// OfflinePerTicket: with a Fleet that cannot be reached, a winner up to this amount (cents)
	// is paid unconfirmed and claimed once the fleet is back; above it nothing is paid.
	OfflinePerTicket int64
	// OfflineTotal caps, with a Fleet that claims later what it paid unconfirmed
	// (fleet.Exposure), those unconfirmed payouts not yet claimed plus the next one.
	OfflineTotal int64
	// AllDelivered: no status list, every pack counts as delivered (emulation); said at start.
	AllDelivered bool
	// DataRefused: the installed ledgers or pack status list failed their checks and none is
	// used (Data holds nothing); said at start.
	DataRefused bool
	// Missing is what was never installed (the daemon decides it from what it loaded): at
	// rest the terminal names it (À INSTALLER : …) instead of SCANNEZ UN CODE. It changes
	// nothing of what is sold or paid: that follows the data itself.
	Missing retail.Missing
	// OnJournalReset is called once a technician has started a new journal in place of a
	// refused one (journal.Journal.Reset): the daemon restarts to open it. nil: the
	// terminal says to restart it (the emulator).
	OnJournalReset func()
	// Language of the screens and receipts: "fr" (the default when empty) or "en"
	// (device/locale); another is an error.
	Language string
	// Observer sees scans, records and faults (metrics); nil: none.
	Observer Observer
	// Rand draws the start's receipt tag (receipt ids, receipts.go); nil: crypto/rand. A
	// reproducible run (the emulator's virtual clock) gives a seeded one.
	Rand   io.Reader
	Clock  clockwork.Clock
	Logger *slog.Logger
}

// Data are the ledgers, the pack status list and the journal the terminal decides with.
type Data struct {
	Ledgers *ledger.Set       // one per block; nil or empty: no ledger installed
	Status  retail.PackStatus // nil: no status list
	Journal *journal.Journal  // required
	// Fleet, when set, claims each ticket fleet-wide before it is paid (docs/fleet.md);
	// nil: a terminal on its own, whose journal is the only guard against paying twice.
	Fleet fleet.Claimer
	// KeyStatement is the version of the operator key statement the ledgers and the list
	// were checked with (0: none, the image's anchor keys); the start refuses one older
	// than the newest the journal says was installed (datafloor.go).
	KeyStatement uint64
	// LimitsStatement is the version of the operator limits statement whose limits are
	// in force (0: none, the configuration's); the start refuses one older than the
	// newest the journal says was installed, or none after one was (datafloor.go).
	LimitsStatement uint64
	// FirmwareKeyStatement is the version of the firmware key statement installed in the
	// slot root (0: none, the image's [keys] firmware anchors); the start refuses one
	// older than the newest the journal says was installed, or none after one was
	// (datafloor.go).
	FirmwareKeyStatement uint64
}

func (c *Config) defaults() error {
	if c.Terminal == "" {
		return errors.New("terminal: config: no terminal id")
	}
	if c.StateDir == "" {
		return errors.New("terminal: config: no state directory")
	}
	if _, err := locale.Get(c.Language); err != nil {
		return fmt.Errorf("terminal: config: %w", err)
	}
	if c.ResultTimeout <= 0 {
		c.ResultTimeout = 20 * time.Second
	}
	if c.OfferTimeout <= 0 {
		c.OfferTimeout = 2 * time.Minute
	}
	if c.PollInterval <= 0 {
		c.PollInterval = 2 * time.Second
	}
	if c.LongPress <= 0 {
		c.LongPress = 3 * time.Second
	}
	if c.StatusPoll <= 0 {
		c.StatusPoll = 30 * time.Second
	}
	c.Throttle = c.Throttle.withDefaults()
	if c.Clock == nil {
		c.Clock = clockwork.NewRealClock()
	}
	if c.Rand == nil {
		c.Rand = rand.Reader
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	return nil
}

func checkParts(p Parts) error {
	if p.Screen == nil || p.Printer == nil || p.Green == nil || p.Red == nil || p.Buzzer == nil || p.Drawer == nil {
		return fmt.Errorf("terminal: parts: screen, printer, LEDs, buzzer and drawer are required")
	}
	return nil
}
