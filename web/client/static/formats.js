// What sets three and four players apart (docs/rules.md, "Three and four players"), as the
// server's format table has it: who is on each side, who plays whom and who sits out each
// round, who deals the round after one somebody won (after a round nobody won, the same side
// deals again), and who wins a match a seat gives up. The page's views and replay read it too.

/**
 * @typedef {object} Format
 * @property {number} sides
 * @property {(seat: number) => number} sideOf
 * @property {number[][] | null} teams the partnerships, if any
 * @property {(dealerSide: number, round: number) => number[][]} roundTables each table's two
 *   seats: [dealt to first, plays the dealer's part]
 * @property {(dealerSide: number) => number | null} sittingOut
 * @property {(dealerSide: number, tables: number[][], winner: number, nextDealer: string) => number} nextDealerSide
 * @property {(seat: number, matchScores: number[], handPoints: number[]) => number} concededTo the
 *   side that wins the match `seat` gives up
 */

/** @type {Record<number, Format>} */
export const FORMATS = {
  // The dealer sits the hand out and deals it to the other two; the loser of a hand deals next.
  3: {
    sides: 3,
    sideOf: (seat) => seat,
    teams: null,
    roundTables: (dealer) => [[(dealer + 1) % 3, (dealer + 2) % 3]],
    sittingOut: (dealer) => dealer,
    nextDealerSide: (_, tables, winner) => tables[0].find((seat) => seat !== winner) ?? winner,
    // The better placed of the other two: match score, then hand points in this game, then
    // the lower seat.
    concededTo: (seat, matchScores, handPoints) => {
      const [first, second] = [0, 1, 2].filter((other) => other !== seat);
      const ahead = matchScores[second] - matchScores[first] || handPoints[second] - handPoints[first];
      return ahead > 0 ? second : first;
    },
  },
  // Partners sit opposite; opponents switch every round; the dealing team's members deal at
  // both tables; the team that won the round deals next, or the teams alternate.
  4: {
    sides: 2,
    sideOf: (seat) => seat % 2,
    teams: [[0, 2], [1, 3]],
    roundTables: (dealer, round) => (round % 2 === 1 ? [[0, 1], [2, 3]] : [[0, 3], [2, 1]]).map(([a, b]) => (a % 2 === dealer ? [b, a] : [a, b])),
    sittingOut: () => null,
    nextDealerSide: (dealer, _, winner, nextDealer) => (nextDealer === "alternate" ? 1 - dealer : winner),
    // A seat concedes for its team.
    concededTo: (seat) => 1 - (seat % 2),
  },
};
