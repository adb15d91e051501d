package journal

import (
	"bufio"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/packterm/pos/internal/money"
	"github.com/packterm/pos/validate/codes"
)

// CSVHeader is the first row of WriteCSV.
var csvHeader = []string{"id", "terminal", "seq", "boot", "time", "kind", "ticket", "game", "amount_eur",
	"receipts", "code", "reason", "detail", "prev", "hash"}

// Euros formats cents as euros with a French decimal comma and no grouping: 3000 → "30,00".
func Euros(cents int64) string { return money.Plain(cents) }

func ticketText(r *Record) string {
	switch {
	case !r.hasTicket():
		return ""
	case r.Ticket.Position == 0:
		s := r.Ticket
		s.Position = 1
		t := s.String()
		return t[:len(t)-2] // "block/pack" for a whole pack
	}
	return r.Ticket.String()
}

// WriteCSV writes one row per record since since (zero: all), French style: ';' between
// fields (the comma is the decimal separator), amounts in euros ("30,00"), times in
// RFC 3339 with the terminal's offset. Payout rows hold the full validation code: the
// export is settlement evidence for the operator.
func (j *Journal) WriteCSV(w io.Writer, since time.Time) error {
	cw := csv.NewWriter(w)
	cw.Comma = ';'
	if err := cw.Write(csvHeader); err != nil {
		return err
	}
	err := j.Each(since, func(r Record) error {
		return cw.Write([]string{r.ID(), r.Terminal, strconv.FormatUint(r.Seq, 10), strconv.FormatUint(r.Boot, 10),
			r.Time.Format(time.RFC3339Nano), r.Kind.String(), ticketText(&r), strconv.Itoa(r.Game), Euros(r.Amount),
			strings.Join(r.Receipts, " "), r.CodeText(), r.Reason, r.Detail, hex.EncodeToString(r.Prev[:]), hex.EncodeToString(r.Hash[:])})
	})
	if err != nil {
		return err
	}
	cw.Flush()
	return cw.Error()
}

// jsonRecord is one JSONL line: amounts in cents.
type jsonRecord struct {
	ID          string   `json:"id"`
	Terminal    string   `json:"terminal"`
	Seq         uint64   `json:"seq"`
	Boot        uint64   `json:"boot"`
	Time        string   `json:"time"`
	Kind        string   `json:"kind"`
	Ticket      string   `json:"ticket,omitempty"`
	Game        int      `json:"game,omitempty"`
	AmountCents int64    `json:"amount_cents"`
	Receipts    []string `json:"receipts,omitempty"`
	Code        string   `json:"code,omitempty"`
	Reason      string   `json:"reason,omitempty"`
	Detail      string   `json:"detail,omitempty"`
	Prev        string   `json:"prev"`
	Hash        string   `json:"hash"`
}

// WriteJSONL writes one JSON object per line and record since since, amounts in cents.
func (j *Journal) WriteJSONL(w io.Writer, since time.Time) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	err := j.Each(since, func(r Record) error {
		return enc.Encode(jsonRecord{ID: r.ID(), Terminal: r.Terminal, Seq: r.Seq, Boot: r.Boot,
			Time: r.Time.Format(time.RFC3339Nano), Kind: r.Kind.String(), Ticket: ticketText(&r), Game: r.Game,
			AmountCents: r.Amount, Receipts: r.Receipts, Code: r.CodeText(), Reason: r.Reason, Detail: r.Detail,
			Prev: hex.EncodeToString(r.Prev[:]), Hash: hex.EncodeToString(r.Hash[:])})
	})
	if err != nil {
		return err
	}
	return bw.Flush()
}

// String is a one-line summary for people and logs. It never holds the validation code
// (only that there is one).
func (r Record) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s %s", r.ID(), r.Time.Format("2006-01-02 15:04:05 -07:00"), r.Kind)
	if t := ticketText(&r); t != "" {
		b.WriteString(" " + t)
	}
	if r.Amount != 0 {
		b.WriteString(" " + Euros(r.Amount) + " EUR")
	}
	if len(r.Receipts) > 0 {
		b.WriteString(" receipts " + strings.Join(r.Receipts, ","))
	}
	if r.HasCode() {
		b.WriteString(" (code recorded)")
	}
	if r.Reason != "" {
		b.WriteString(" reason " + r.Reason)
	}
	if r.Detail != "" {
		fmt.Fprintf(&b, " %q", r.Detail)
	}
	return b.String()
}

// ParseTicketRef reads "BLOCK/PACK/POS" (a ticket) or "BLOCK/PACK" (a pack: position 0),
// numbers in decimal with or without leading zeros, as String and the exports write them.
func ParseTicketRef(s string) (codes.TicketID, error) {
	parts := strings.Split(s, "/")
	if len(parts) < 2 || len(parts) > 3 {
		return codes.TicketID{}, fmt.Errorf("journal: ticket %.30q: want BLOCK/PACK/POS or BLOCK/PACK", s)
	}
	var v [3]uint64
	for i, p := range parts {
		n, err := strconv.ParseUint(p, 10, 32)
		if err != nil {
			return codes.TicketID{}, fmt.Errorf("journal: ticket %.30q: %q is not a number", s, p)
		}
		v[i] = n
	}
	if v[0] > 0xffff || v[2] > 0xff {
		return codes.TicketID{}, fmt.Errorf("journal: ticket %.30q: out of range", s)
	}
	id := codes.TicketID{Block: uint16(v[0]), Pack: uint32(v[1]), Position: uint8(v[2])}
	check := id
	if len(parts) == 2 {
		check.Position = 1
	}
	if err := check.Validate(); err != nil {
		return codes.TicketID{}, fmt.Errorf("journal: ticket %.30q: %w", s, err)
	}
	return id, nil
}
