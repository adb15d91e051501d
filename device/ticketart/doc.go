// Package ticketart draws tickets as people see them, from their row of the printer's
// file: the front shows the ticket's game (its number, name and article of the règlement)
// and every scratch zone as scratched, with the play data in the règlement's words
// (game.Play.Describe: symbols as labelled icons, words, amounts); the back shows its
// codes: the ticket code in Interleaved 2 of 5 with its digits, the validation code as a
// QR code with its grouped manual form in the scratched latex area, and the pack code of
// the sleeve the ticket came in.
//
// FindRow reads a printer's file (gzip CSV, streamed) up to the row of one ticket.
// The images are PNGs a person can read and the terminal's camera decoder can scan.
package ticketart
