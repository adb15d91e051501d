//go:build !production

package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	_ "image/gif" // uploads may be GIF
	_ "image/jpeg"
	"image/png"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/packterm/pos/device/emulated"
	"github.com/packterm/pos/drivers/scanner"
	"github.com/packterm/pos/validate/codes"
)

// MaxUpload bounds a photo upload.
const MaxUpload = 8 << 20

// actions are the inputs the page's buttons send, by name.
var actions = map[string]emulated.Action{
	"scan": emulated.ActScan, "ok": emulated.ActOK, "cancel": emulated.ActCancel,
	"paper-out": emulated.ActPaperOut, "paper-in": emulated.ActPaperIn,
	"cover-open": emulated.ActCoverOpen, "cover-close": emulated.ActCoverClose,
	"tamper": emulated.ActTamper, "unlock": emulated.ActUnlock,
	"report": emulated.ActReport, "reprint": emulated.ActReprint,
}

// emulator serves the emulated terminal's page and controls.
type emulator struct {
	rig *emulated.Rig
	s   *Server

	ctx     context.Context // ends with Server.Close: stops the background drawings
	cancel  context.CancelFunc
	wg      sync.WaitGroup
	drawing sync.Mutex

	inputs sync.Mutex // one input at a time, as one pair of hands
	mu     sync.Mutex
	last   Answer
	photo  []byte // the last uploaded photo, as PNG
	photos int
	ticket []byte // the front of the last ticket scanned, drawn from the printer's file
	drawn  int
}

// Answer is the last input and what came of it. A code in it is masked as the logs mask
// it (codes.Redact): a validation code shows the ticket it names, never its secret.
type Answer struct {
	N       int    `json:"n"`
	Input   string `json:"input"`
	From    string `json:"from,omitempty"`    // "stdin": a line typed on posd's stdin (or its --script)
	Decoded string `json:"decoded,omitempty"` // a photo's code
	Error   string `json:"error,omitempty"`
	Photo   int    `json:"photo,omitempty"`  // number of the photo shown (0: none)
	Ticket  int    `json:"ticket,omitempty"` // number of the ticket front drawn (0: none)
}

// Live is the emulated terminal's state, sent as each "live" event.
type Live struct {
	State    string   `json:"state"`
	LCD      LCD      `json:"lcd"`
	Green    bool     `json:"green"`
	Red      bool     `json:"red"`
	Receipts int      `json:"receipts"`
	Printer  string   `json:"printer"`
	Tamper   bool     `json:"tamper"`
	Last     Answer   `json:"last"`
	Scanner  bool     `json:"scanner"`
	Screen   []string `json:"screen"`
}

// LCD is what the panel shows: character codes per cell and the CGRAM patterns.
type LCD struct {
	Cols      int      `json:"cols"`
	Rows      int      `json:"rows"`
	Lit       bool     `json:"lit"`
	Backlight bool     `json:"backlight"`
	Codes     [][]int  `json:"codes"`
	CGRAM     [8][]int `json:"cgram"`
	Text      []string `json:"text"` // as a person reads it
}

func (e *emulator) routes(m *http.ServeMux) {
	m.HandleFunc("GET /emu/live.json", func(w http.ResponseWriter, r *http.Request) { writeJSON(w, http.StatusOK, e.live()) })
	m.HandleFunc("GET /emu/events", e.handleEvents)
	m.HandleFunc("POST /emu/input", e.handleInput)
	m.HandleFunc("POST /emu/photo", e.handlePhoto)
	m.HandleFunc("GET /emu/receipt/{n}", e.handleReceipt)
	m.HandleFunc("GET /emu/photo.png", e.handlePhotoPNG)
	m.HandleFunc("GET /emu/ticket.png", e.handleTicketPNG)
}

func (e *emulator) handlePage(w http.ResponseWriter, r *http.Request) {
	e.s.render(w, "emulator.html", map[string]any{"Live": e.live()})
}

func (e *emulator) live() Live {
	b := e.rig.Board
	lcd := b.Emulator.LCD
	l := Live{State: e.rig.Terminal.StateName(), Green: b.Green.IsOn(), Red: b.Red.IsOn(),
		Receipts: len(e.rig.Printer.Receipts()), Tamper: b.Tamper.State().Open,
		Scanner: e.rig.Terminal.ScannerPresent(), Screen: e.rig.Terminal.Screen()}
	l.Printer = e.rig.Driver.LastStatus().String()
	st := lcd.State()
	l.LCD = LCD{Cols: lcd.Cols(), Rows: lcd.Rows(), Lit: lcd.Lit(), Backlight: st.Backlight, Text: readable(lcd.Visible())}
	for _, row := range lcd.Codes() {
		ints := make([]int, len(row))
		for i, c := range row {
			ints[i] = int(c)
		}
		l.LCD.Codes = append(l.LCD.Codes, ints)
	}
	for n := range 8 {
		g := lcd.Glyph(n)
		l.LCD.CGRAM[n] = make([]int, 8)
		for i, row := range g {
			l.LCD.CGRAM[n][i] = int(row)
		}
	}
	e.mu.Lock()
	l.Last = e.last
	e.mu.Unlock()
	return l
}

// handleEvents streams "live" events: the state at once, then each time it changes.
func (e *emulator) handleEvents(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("X-Accel-Buffering", "no")
	tick := e.s.clk.NewTicker(e.s.o.Poll)
	defer tick.Stop()
	var sent []byte
	idle := 0
	for {
		b, _ := json.Marshal(e.live())
		switch {
		case !bytes.Equal(b, sent):
			fmt.Fprintf(w, "event: live\ndata: %s\n\n", b)
			sent, idle = b, 0
			fl.Flush()
		case idle > 150: // a comment now and then keeps proxies from closing the stream
			fmt.Fprint(w, ": keep-alive\n\n")
			idle = 0
			fl.Flush()
		}
		idle++
		select {
		case <-r.Context().Done():
			return
		case <-tick.Chan():
		}
	}
}

// sameOrigin refuses cross-site posts: the page's script sends X-Posd, which a plain
// form or image on another site cannot.
func sameOrigin(w http.ResponseWriter, r *http.Request) bool {
	if r.Header.Get("X-Posd") != "1" {
		http.Error(w, "missing X-Posd header", http.StatusForbidden)
		return false
	}
	return true
}

type inputRequest struct {
	Action string `json:"action"`
	Code   string `json:"code,omitempty"`
}

func (e *emulator) handleInput(w http.ResponseWriter, r *http.Request) {
	if !sameOrigin(w, r) {
		return
	}
	var req inputRequest
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 4<<10)).Decode(&req); err != nil {
		http.Error(w, "bad input: "+err.Error(), http.StatusBadRequest)
		return
	}
	a, ok := actions[req.Action]
	code := strings.TrimSpace(req.Code)
	if !ok || (a == emulated.ActScan && (code == "" || len(code) > 200)) {
		http.Error(w, fmt.Sprintf("unknown input %q", req.Action), http.StatusBadRequest)
		return
	}
	arg := ""
	if a == emulated.ActScan || a == emulated.ActUnlock {
		arg = code
	}
	e.inputs.Lock()
	err := e.rig.Apply(r.Context(), emulated.Input{Action: a, Arg: arg})
	e.inputs.Unlock()
	what := req.Action
	if a == emulated.ActScan {
		what = "scan " + codes.Redact(code) // never the whole code: the page is no log
	}
	ans := e.answer(Answer{Input: what}, err)
	if a == emulated.ActScan {
		e.drawLater(ans.N, code)
	}
	writeJSON(w, status(err), ans)
}

func status(err error) int {
	if err != nil {
		return http.StatusUnprocessableEntity
	}
	return http.StatusOK
}

func (e *emulator) answer(a Answer, err error) Answer {
	if err != nil {
		a.Error = codes.RedactText(err.Error())
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	a.N = e.last.N + 1
	e.last = a
	return a
}

// handlePhoto takes an uploaded photo ("photo" field), shows it to the emulated camera's
// decoder and hands the code to the terminal as a scan.
func (e *emulator) handlePhoto(w http.ResponseWriter, r *http.Request) {
	if !sameOrigin(w, r) {
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, MaxUpload)
	f, hdr, err := r.FormFile("photo")
	if err != nil {
		http.Error(w, "photo: "+err.Error(), http.StatusBadRequest)
		return
	}
	defer f.Close()
	data, err := readAll(f)
	if err != nil {
		http.Error(w, "photo: "+err.Error(), http.StatusBadRequest)
		return
	}
	img, err := decodeImage(data)
	if err != nil {
		writeJSON(w, http.StatusBadRequest, e.answer(Answer{Input: "photo"}, err))
		return
	}
	var shown bytes.Buffer
	if err := png.Encode(&shown, img); err != nil {
		http.Error(w, "photo: "+err.Error(), http.StatusInternalServerError)
		return
	}
	e.mu.Lock()
	e.photo = shown.Bytes()
	e.photos++
	n := e.photos
	e.mu.Unlock()
	e.inputs.Lock()
	text, err := e.rig.PhotoFrame(r.Context(), scanner.ImageFrame{Image: img, Name: "upload " + hdr.Filename})
	e.inputs.Unlock()
	ans := e.answer(Answer{Input: "photo", Decoded: codes.Redact(text), Photo: n}, err)
	e.drawLater(ans.N, text)
	writeJSON(w, status(err), ans)
}

func readAll(f interface{ Read([]byte) (int, error) }) ([]byte, error) {
	var b bytes.Buffer
	_, err := b.ReadFrom(f)
	return b.Bytes(), err
}

// decodeImage decodes an uploaded PNG, JPEG or GIF within the scanner's photo bounds
// (scanner.ReadPhoto: the announced size is checked before the pixels are decoded).
func decodeImage(data []byte) (image.Image, error) {
	fr, err := scanner.ReadPhoto(data, "upload")
	if err != nil {
		return nil, fmt.Errorf("web: photo: %w", err)
	}
	return fr.Image, nil
}

// handleReceipt serves receipt N (from 1) as printed: N.png its image, N.txt its text.
// Neither is cached (no-store, as every answer): a fresh emulator's receipt N is another
// receipt.
func (e *emulator) handleReceipt(w http.ResponseWriter, r *http.Request) {
	num, ext, _ := strings.Cut(r.PathValue("n"), ".")
	n, err := strconv.Atoi(num)
	rs := e.rig.Printer.Receipts()
	if err != nil || n < 1 || n > len(rs) || num != strconv.Itoa(n) || (ext != "png" && ext != "txt") {
		http.NotFound(w, r)
		return
	}
	if ext == "txt" {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprint(w, rs[n-1].PlainText())
		return
	}
	var b bytes.Buffer
	if err := rs[n-1].WritePNG(&b); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "image/png")
	_, _ = w.Write(b.Bytes())
}

func (e *emulator) handlePhotoPNG(w http.ResponseWriter, r *http.Request) {
	e.mu.Lock()
	p := e.photo
	e.mu.Unlock()
	servePNG(w, r, p)
}

func (e *emulator) handleTicketPNG(w http.ResponseWriter, r *http.Request) {
	e.mu.Lock()
	p := e.ticket
	e.mu.Unlock()
	servePNG(w, r, p)
}

func servePNG(w http.ResponseWriter, r *http.Request, p []byte) {
	if p == nil {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "image/png")
	_, _ = w.Write(p)
}

// readable writes the glyphs a row names in braces ("{É}") as the characters they are.
func readable(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		var sb strings.Builder
		for l != "" {
			j := strings.IndexByte(l, '{')
			k := strings.IndexByte(l[max(j, 0):], '}')
			if j < 0 || k < 0 {
				sb.WriteString(l)
				break
			}
			name := l[j+1 : j+k]
			sb.WriteString(l[:j])
			if utf8.RuneCountInString(name) == 1 {
				sb.WriteString(name)
			} else {
				sb.WriteString(l[j : j+k+1])
			}
			l = l[j+k+1:]
		}
		out[i] = sb.String()
	}
	return out
}
