// Package money writes and reads amounts of euro cents: one formatter (Format, with the
// style of a locale; Plain for files and command lines) and one parser (Parse) that every
// reader of an amount uses: the configuration, posctl and the web.
//
// The grammar Parse reads, whatever the retailer's language:
//
//	amount = euros [ "," cents ] [ " " ] [ "€" ]
//	euros  = digits, or groups of three digits after the first (1 to 3) separated by a
//	         space, a no-break space or a narrow no-break space: "5000", "5 000"
//	cents  = one or two digits: "150,5" is 150,50 €
//
// A dot is refused, with an error that says so: "1.500" is one euro fifty in English and
// fifteen hundred euros in French, and a slipped amount pays money. So "1.50" is an
// error; write "1,50". Negative amounts are refused; at most 1 000 000 000 €.
package money
