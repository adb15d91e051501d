package server

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/packterm/pos/device/fleet"
)

// The journal's intake (docs/fleet.md, "Accounts: what a terminal reaches"). A terminal
// publishes its records on journal.<id>.<kind> in its own account, which imports that
// subject from the fleet's account as intake.<id>.<kind>: the claim service, not
// JetStream, takes each record. In the fair queue with the terminal's other requests,
// within its record rate limit, it checks the message is a record of that terminal and
// kind (nothing else enters the operator's archive under a terminal's name) and
// publishes it to the JOURNAL stream with its message id and epoch, then relays
// JetStream's acknowledgement: the terminal's client sees what it saw when it published
// to the stream itself.

// IntakePrefix + terminal + "." + kind: a terminal's record, as the fleet's account sees it.
const IntakePrefix = "intake."

// Default record rate limits per terminal: a busy terminal journals a few hundred records
// a day; the burst lets one that was out of reach for a day catch up at once.
const (
	DefaultRecordRate  = 20.0
	DefaultRecordBurst = 2000
	// intakeQueue bounds one terminal's records waiting for a handler: the client
	// publishes up to 256 at a time.
	intakeQueue = 512
)

// intakeTerminal is the terminal of an intake subject (intake.<id>.<kind>).
func intakeTerminal(subject string) string {
	t, _, _ := strings.Cut(strings.TrimPrefix(subject, IntakePrefix), ".")
	return t
}

// jsError is JetStream's error answer to a publication, as the terminal's client reads it.
type jsError struct {
	Error struct {
		Code        int    `json:"code"`
		ErrCode     int    `json:"err_code"`
		Description string `json:"description"`
	} `json:"error"`
}

func (s *Service) replyJSError(m *nats.Msg, code int, what string) {
	var e jsError
	e.Error.Code, e.Error.ErrCode, e.Error.Description = code, 10000+code, "fleet intake: "+what
	b, _ := json.Marshal(e)
	m.Respond(b)
}

// handleIntake takes one record of terminal into the journal stream.
func (s *Service) handleIntake(ctx context.Context, terminal string, m *nats.Msg) {
	if ok, _, _ := s.records.Allow(terminal); !ok {
		if s.toldLimited.allow(terminal + ".journal") {
			s.replyJSError(m, 429, fleet.RefusedRateLimited+": over the terminal's record rate limit")
		}
		return
	}
	subject := "journal." + strings.TrimPrefix(m.Subject, IntakePrefix)
	if _, err := fleet.DecodeJournalMsg(subject, m.Data); err != nil {
		s.o.Logger.Warn("fleet service: a terminal's message refused at the journal's intake", "terminal", terminal, "err", err)
		s.replyJSError(m, 400, "not a record of this terminal: "+err.Error())
		return
	}
	out := &nats.Msg{Subject: subject, Data: m.Data, Header: nats.Header{}}
	for _, h := range []string{jetstream.MsgIDHeader, fleet.EpochHeader} {
		if v := m.Header.Get(h); v != "" {
			out.Header.Set(h, v)
		}
	}
	ctx, cancel := context.WithTimeout(ctx, opTimeout)
	defer cancel()
	ack, err := s.js.PublishMsg(ctx, out)
	if err != nil {
		var api *jetstream.APIError
		if errors.As(err, &api) {
			s.replyJSError(m, api.Code, api.Description)
		} // else the store did not answer: the terminal times out and publishes again
		s.o.Logger.Warn("fleet service: journal record not stored", "terminal", terminal, "err", err)
		return
	}
	b, _ := json.Marshal(ack)
	m.Respond(b)
}
