package console

import (
	"net/http"
	"strings"

	"github.com/packterm/pos/device/locale"
)

// words are the console's texts: French (the default), English.
var words = map[string][2]string{
	"title":        {"Console de l'opérateur", "Operator's console"},
	"overview":     {"Vue d'ensemble", "Overview"},
	"terminals":    {"Terminaux", "Terminals"},
	"settlement":   {"Règlement", "Settlement"},
	"retailers":    {"Commerçants", "Retailers"},
	"login":        {"Connexion", "Log in"},
	"logout":       {"Déconnexion", "Log out"},
	"token":        {"Jeton de la console", "Console token"},
	"token-help":   {"Le jeton est dans le fichier console.token du répertoire de données de la flotte.", "The token is in the console.token file of the fleet's data directory."},
	"wrong-token":  {"Jeton refusé.", "Token refused."},
	"too-many":     {"Trop de jetons faux : réessayez plus tard.", "Too many wrong tokens: try again later."},
	"online":       {"en ligne", "online"},
	"silent":       {"silencieux", "silent"},
	"never":        {"jamais vus", "never seen"},
	"day":          {"Jour", "Day"},
	"sales":        {"Ventes", "Sales"},
	"payouts":      {"Paiements", "Payouts"},
	"claims":       {"Demandes de paiement", "Claim receipts"},
	"refusals":     {"Refus", "Refusals"},
	"reason":       {"Motif", "Reason"},
	"conflicts":    {"Conflits", "Conflicts"},
	"conflict-rec": {"Enregistrements de conflit", "Conflict records"},
	"unclaimed":    {"Paiements hors ligne non réclamés", "Offline payouts not yet claimed"},
	"flags":        {"Paiements signalés", "Flagged payouts"},
	"forks":        {"Bifurcations", "Forks"},
	"unread":       {"Messages illisibles", "Unreadable messages"},
	"chart":        {"Paiements par minute, dernières heures", "Payouts per minute, last hours"},
	"terminal":     {"Terminal", "Terminal"},
	"retailer":     {"Commerçant", "Retailer"},
	"state":        {"État", "State"},
	"last-contact": {"Dernier contact", "Last contact"},
	"last-record":  {"Dernier enregistrement", "Last record"},
	"faults":       {"Défauts", "Faults"},
	"records":      {"Enregistrements", "Records"},
	"search":       {"Chercher", "Search"},
	"any":          {"tous", "any"},
	"kind":         {"Type", "Kind"},
	"time":         {"Heure", "Time"},
	"received":     {"Reçu", "Received"},
	"ticket":       {"Billet", "Ticket"},
	"amount":       {"Montant", "Amount"},
	"detail":       {"Détail", "Detail"},
	"prize":        {"Lot", "Prize"},
	"page":         {"Page", "Page"},
	"of":           {"sur", "of"},
	"prev":         {"← Précédente", "← Previous"},
	"next":         {"Suivante →", "Next →"},
	"none":         {"Aucun.", "None."},
	"unknown":      {"inconnu", "unknown"},
	"not-reg":      {"non enregistré", "not registered"},
	"block":        {"Bloc", "Block"},
	"proven":       {"Prouvés", "Proven"},
	"flagged":      {"Signalés", "Flagged"},
	"excess":       {"Payé au-delà des lots", "Paid above the prizes"},
	"export":       {"Exporter", "Export"},
	"no-manifest":  {"Aucun manifeste de bloc : lancez le serveur avec --manifest pour le règlement.", "No block manifests: start the server with --manifest for settlement."},
	"status-list":  {"Liste d'état des carnets", "Pack status list"},
	"version":      {"Version", "Version"},
	"no-status":    {"Aucune liste publiée.", "No list published."},
	"holder":       {"Détenteur", "Holder"},
	"other":        {"Autre", "Other"},
	"live":         {"en direct", "live"},
	"offline":      {"hors ligne", "offline"},
	"unconfirmed":  {"hors ligne", "offline"},
	"bad-query":    {"Paramètres ignorés", "Parameters ignored"},
	"not-found":    {"Introuvable.", "Not found."},
	"terminals-of": {"Ses terminaux", "Its terminals"},
	"ranges":       {"Plages", "Ranges"},
	"first-pack":   {"Premier carnet", "First pack"},
	"count":        {"Nombre", "Count"},
	"issued":       {"Émise", "Issued"},
	"show":         {"Afficher", "Show"},
	"sig-ok":       {"signature vérifiée", "signature verified"},
	"sig-bad":      {"signature NON VÉRIFIÉE : le service la refuse", "signature NOT VERIFIED: the service refuses it"},
}

// lang is a request's language: its lang query parameter, else the first language of
// Accept-Language it knows, else French.
func lang(r *http.Request) string {
	switch r.URL.Query().Get("lang") {
	case "en":
		return "en"
	case "fr":
		return "fr"
	}
	return acceptLang(r)
}

// acceptLang is the first language of r's Accept-Language the console knows, else
// French.
func acceptLang(r *http.Request) string {
	for _, part := range strings.Split(r.Header.Get("Accept-Language"), ",") {
		tag, _, _ := strings.Cut(strings.TrimSpace(part), ";")
		tag = strings.ToLower(tag)
		switch {
		case tag == "fr" || strings.HasPrefix(tag, "fr-"):
			return "fr"
		case tag == "en" || strings.HasPrefix(tag, "en-"):
			return "en"
		}
	}
	return "fr"
}

// word is key's text in lang (the key itself when it has none: a test catches it).
func word(lang, key string) string {
	w, ok := words[key]
	if !ok {
		return key
	}
	if lang == "en" {
		return w[1]
	}
	return w[0]
}

// money writes cents in lang's style (device/locale's).
func money(lang string, cents int64) string {
	l, err := locale.Get(lang)
	if err != nil {
		l = locale.French()
	}
	return locale.Plain(l.Money(cents))
}
