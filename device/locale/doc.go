// Package locale holds every word the terminal says to the retailer (screens, receipts,
// diagnostic prompts, refusal reasons, the printer's test page) and how it writes money
// and dates, one Locale per language. French ("fr") is the default; English ("en") proves
// the seam.
//
// A text is found by its Key. Its template holds the phrases of a screen separated by
// " | " and its forms, most detailed first, separated by " || " (a one-line text has one
// phrase); "{1}", "{2}"… stand for the arguments and "~" for a no-break space (the words
// it joins stay on one row). Arguments of type Amount and Date are written the locale's
// way (bound: a screen never splits them), a Key argument as the locale's text of it,
// others as fmt.Sprint writes them.
//
// Adding a language: copy fr.go to xx.go, translate every template (same keys, same
// placeholders; TestCataloguesMatch says which differ), add the Locale to Get, and run
// the screen test of device/retail (every screen fits 16×2 and 20×4 with the panel's
// character set) and the receipt goldens of device/terminal.
package locale
