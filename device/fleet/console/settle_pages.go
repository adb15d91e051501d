package console

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/packterm/pos/validate/settle"
)

type settleData struct {
	Day        string
	NoManifest bool
	DS         *DaySettlement
	Retailer   map[string]uint32 // terminal -> retailer, for the flags
}

// daySettlement is the settlement of the day r asks for (today by default).
func (c *Console) daySettlement(r *http.Request) (string, *DaySettlement, error) {
	q := c.dayOr(parseQuery(r.URL.Query()))
	ds, err := c.settler.day(q.Day)
	return q.Day, ds, err
}

func (c *Console) handleSettle(w http.ResponseWriter, r *http.Request) {
	day, ds, err := c.daySettlement(r)
	d := settleData{Day: day, DS: ds}
	switch {
	case errors.Is(err, ErrNoManifests):
		d.NoManifest = true
	case err != nil:
		c.log.Error("console: settlement", "err", err)
		http.Error(w, "settlement failed", http.StatusInternalServerError)
		return
	}
	c.render(w, r, "settle", d)
}

func (c *Console) settleExport(w http.ResponseWriter, r *http.Request) (*DaySettlement, bool) {
	_, ds, err := c.daySettlement(r)
	if errors.Is(err, ErrNoManifests) {
		http.Error(w, err.Error(), http.StatusNotFound)
		return nil, false
	}
	if err != nil {
		c.log.Error("console: settlement", "err", err)
		http.Error(w, "settlement failed", http.StatusInternalServerError)
		return nil, false
	}
	return ds, true
}

// handleSettleJSON exports the day's settlement as JSON (DaySettlement: the settlement
// object of fleet settle --json, restricted to the day's payouts, and the day's rows).
func (c *Console) handleSettleJSON(w http.ResponseWriter, r *http.Request) {
	ds, ok := c.settleExport(w, r)
	if !ok {
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Disposition", `attachment; filename="settlement-`+ds.Day+`.json"`)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.Encode(ds)
}

// handleSettleCSV exports the day's settlement as CSV: a line per retailer and block
// (type "row"), then a line per flagged payout (type "flag", its reasons joined by ";").
func (c *Console) handleSettleCSV(w http.ResponseWriter, r *http.Request) {
	ds, ok := c.settleExport(w, r)
	if !ok {
		return
	}
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="settlement-`+ds.Day+`.csv"`)
	cw := csv.NewWriter(w)
	cw.Write([]string{"type", "day", "retailer", "block", "payouts", "payouts_cents", "flagged", "flagged_cents",
		"terminal", "record", "ticket", "amount_cents", "prize_cents", "reasons", "detail"})
	itoa := func(n int64) string { return strconv.FormatInt(n, 10) }
	for _, row := range ds.Rows {
		cw.Write([]string{"row", ds.Day, itoa(int64(row.Retailer)), itoa(int64(row.Block)), itoa(int64(row.Payouts)),
			itoa(row.PayoutsAmount), itoa(int64(row.Flagged)), itoa(row.FlaggedAmount), "", "", "", "", "", "", ""})
	}
	for _, p := range ds.Settlement.Flagged {
		reasons, details := flagText(p.Flags)
		cw.Write([]string{"flag", ds.Day, "", strconv.Itoa(int(p.ID.Block)), "", "", "", "", csvSafe(p.Terminal), csvSafe(p.Record), p.Ticket,
			itoa(p.Amount), itoa(p.Prize), reasons, csvSafe(details)})
	}
	cw.Flush()
}

// flagText joins a payout's flags' reasons and details.
func flagText(fs []settle.Flag) (reasons, details string) {
	var rs, ds []string
	for _, f := range fs {
		rs = append(rs, f.Reason)
		if f.Detail != "" {
			ds = append(ds, f.Reason+": "+f.Detail)
		}
	}
	return strings.Join(rs, ";"), strings.Join(ds, "; ")
}

// csvSafe keeps a spreadsheet from reading a cell a terminal wrote as a formula.
func csvSafe(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}
