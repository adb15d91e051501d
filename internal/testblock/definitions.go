package testblock

// TwoEuroDefinition is a feasible eight-pack game with 2 € winners (game 1), losers in
// every pack, and lots of 1 to 10 €: small enough that its plan builds in milliseconds
// (the settlement tests pay its 2 € winners and its losers).
const TwoEuroDefinition = `{
  "source": "test", "comment": "eight packs, 2 EUR winners", "pack_price_eur": 10, "block_packs": 8, "tickets_per_pack": 8,
  "pack": {"article": "3.1",
    "tiers": [{"count": 1, "amount_eur": 10, "total_eur": 10}, {"count": 4, "amount_eur": 5, "total_eur": 20},
              {"count": 3, "amount_eur": 3, "total_eur": 9}],
    "total_count": 8, "total_eur": 39, "cumulation_only_eur": [], "winners_per_pack": [1, 2, 3, 4, 5, 7], "min_eur": 3},
  "games": [
    {"number": 1, "article": "4.2", "name": "Le p'tit dej au caviar", "tiers": [{"count": 1, "amount_eur": 5, "total_eur": 5}, {"count": 3, "amount_eur": 2, "total_eur": 6}], "total_count": 4, "total_eur": 11},
    {"number": 2, "article": "4.3", "name": "Buller dans mon jacuzzi", "tiers": [{"count": 2, "amount_eur": 1, "total_eur": 2}], "total_count": 2, "total_eur": 2},
    {"number": 3, "article": "4.4", "name": "La pause farniente", "tiers": [{"count": 1, "amount_eur": 2, "total_eur": 2}, {"count": 1, "amount_eur": 1, "total_eur": 1}], "total_count": 2, "total_eur": 3},
    {"number": 4, "article": "4.5", "name": "La virée shopping", "tiers": [{"count": 1, "amount_eur": 5, "total_eur": 5}], "total_count": 1, "total_eur": 5},
    {"number": 5, "article": "4.6", "name": "Jouer avec les paparazzi", "tiers": [{"count": 1, "amount_eur": 4, "total_eur": 4}], "total_count": 1, "total_eur": 4},
    {"number": 6, "article": "4.7", "name": "La sortie en limousine", "tiers": [{"count": 1, "amount_eur": 10, "total_eur": 10}], "total_count": 1, "total_eur": 10},
    {"number": 7, "article": "4.8", "name": "La soirée privée", "tiers": [{"count": 1, "amount_eur": 3, "total_eur": 3}], "total_count": 1, "total_eur": 3},
    {"number": 8, "article": "4.9", "name": "Bonus, l'after sur le yacht", "tiers": [{"count": 1, "amount_eur": 1, "total_eur": 1}], "total_count": 1, "total_eur": 1}
  ]
}`
