package game

// An entry is one thing that can be printed under a scratch zone: a symbol, a word or a
// sentence. Code is its short form in the printer's file, Name what a person reads.
type entry struct {
	code string
	name string
	// mult is the multiplier a phase-2 sentence announces (1 for none).
	mult int
}

// A vocab is the list of entries a zone may show. By convention the winning entry, when
// the zone has one, is at index 0.
type vocab []entry

func (v vocab) lookup(code string) (uint8, bool) {
	for i := range v {
		if v[i].code == code {
			return uint8(i), true
		}
	}
	return 0, false
}

// winning is the index of a zone's winning symbol or word.
const winning = 0

// Vocabularies. Names are what the ticket shows (French); codes are unique within a vocab.
var (
	caviarMessages = vocab{ // 4.2.3: a mention inviting the player to go on playing
		{code: "M1", name: "CONTINUEZ À JOUER"},
		{code: "M2", name: "POURSUIVEZ LE JEU"},
		{code: "M3", name: "RETENTEZ VOTRE CHANCE"},
		{code: "M4", name: "JOUEZ LE TICKET SUIVANT"},
	}
	jacuzziWords = vocab{ // 4.3.4: BULLE wins
		{code: "BULLE", name: "BULLE"},
		{code: "BALLE", name: "BALLE"}, {code: "BOULE", name: "BOULE"}, {code: "BILLE", name: "BILLE"},
		{code: "MOUSSE", name: "MOUSSE"}, {code: "PERLE", name: "PERLE"}, {code: "VAGUE", name: "VAGUE"},
	}
	farnienteSymbols = vocab{ // 4.4.3: two identical symbols win; no symbol is special
		{code: "CK", name: "cocktail"}, {code: "PS", name: "parasol"}, {code: "LU", name: "lunettes de soleil"},
		{code: "PA", name: "palmier"}, {code: "TG", name: "tongs"}, {code: "CQ", name: "coquillage"},
	}
	shoppingSymbols = vocab{ // 4.5.3: three identical symbols win
		{code: "SM", name: "sac à main"}, {code: "ES", name: "escarpin"}, {code: "CO", name: "collier"},
		{code: "MO", name: "montre"}, {code: "PF", name: "parfum"}, {code: "RB", name: "robe"},
	}
	paparazziSymbols = vocab{ // 4.6.3.3: two "appareil photo" win
		{code: "AP", name: "appareil photo"},
		{code: "MI", name: "micro"}, {code: "CA", name: "caméra"}, {code: "ET", name: "étoile"},
		{code: "PR", name: "projecteur"}, {code: "MG", name: "magazine"},
	}
	limousineSymbols = vocab{ // 4.7.3: a "tête de personnage" wins its amount
		{code: "TP", name: "tête de personnage"},
		{code: "CH", name: "chapeau"}, {code: "BO", name: "bouteille"}, {code: "NP", name: "nœud papillon"},
		{code: "GA", name: "gant"}, {code: "CL", name: "clé de voiture"},
	}
	// limousinePlate is surface 2 of 4.7.4: four winning symbols with fixed gains.
	limousinePlate = vocab{
		{code: "NM", name: "note de musique"}, {code: "FN", name: "flocon de neige"},
		{code: "VS", name: "verre à soda"}, {code: "TV", name: "téléviseur"},
		{code: "ET", name: "étoile"}, {code: "LN", name: "lune"}, {code: "RO", name: "roue"}, {code: "CR", name: "couronne"},
	}
	soireeWords = vocab{ // 4.8.3: VIP wins
		{code: "VIP", name: "VIP"},
		{code: "VIE", name: "VIE"}, {code: "VIF", name: "VIF"}, {code: "VIS", name: "VIS"}, {code: "PIV", name: "PIV"},
	}
	soireeTables = vocab{ // 4.8.4: each "verre à cocktail" wins its amount
		{code: "VC", name: "verre à cocktail"},
		{code: "BG", name: "bougie"}, {code: "CS", name: "coussin"}, {code: "LA", name: "lampe"}, {code: "FL", name: "fleur"},
	}
	soireePool = vocab{ // 4.8.5: two or more "personnage" win
		{code: "PE", name: "personnage"},
		{code: "BU", name: "bouée"}, {code: "BA", name: "ballon"}, {code: "CN", name: "canard"}, {code: "VG", name: "vague"},
	}
	yachtWords = vocab{ // 4.9.4: JET7 wins
		{code: "JET7", name: "JET7"},
		{code: "JET1", name: "JET1"}, {code: "JETS", name: "JETS"}, {code: "JET", name: "JET"},
		{code: "YACHT", name: "YACHT"}, {code: "VOILE", name: "VOILE"},
	}
	// Phase-2 sentences (4.6.4 and 4.8.6.3): the two wordings the règlement allows per
	// multiplier, and sentences that announce no multiplication.
	paparazziSentences = vocab{
		{code: "x1a", name: "Pas de multiplication cette fois", mult: 1},
		{code: "x1b", name: "Votre gain reste inchangé", mult: 1},
		{code: "x2a", name: "Vous multipliez votre gain par deux", mult: 2},
		{code: "x2b", name: "Vous multipliez votre gain × 2", mult: 2},
		{code: "x3a", name: "Vous multipliez votre gain par trois", mult: 3},
		{code: "x3b", name: "Vous multipliez votre gain × 3", mult: 3},
	}
	djSentences = append(paparazziSentences[:len(paparazziSentences):len(paparazziSentences)],
		entry{code: "x4a", name: "Vous multipliez votre gain par quatre", mult: 4},
		entry{code: "x4b", name: "Vous multipliez votre gain × 4", mult: 4},
	)
)

// sentenceFor returns the index of a random sentence of v announcing multiplier m.
func sentenceFor(v vocab, m int, pick func(n int) int) uint8 {
	var idx [8]uint8
	n := 0
	for i := range v {
		if v[i].mult == m {
			idx[n] = uint8(i)
			n++
		}
	}
	return idx[pick(n)]
}
