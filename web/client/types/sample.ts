// How an app types its calls with the generated types: checked by `tsc --strict` with the
// page's own code, so a change to the API that breaks a client breaks the test command.
import type { components, paths } from "./api";

type MatchView = components["schemas"]["MatchView"];
type Command = MatchView["legal_actions"][number];
type ViewResponse =
  paths["/matches/{match_id}/view"]["get"]["responses"][200]["content"]["application/json"];

export async function firstLegalMove(base: string, matchId: string, token: string): Promise<Command | null> {
  const response = await fetch(`${base}/matches/${matchId}/view`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  const view: ViewResponse = await response.json();
  const move = view.legal_actions[0];
  if (move === undefined) return null;
  if (move.type === "discard") {
    const card: string = move.card; // narrowed by the command's type
    console.log(`discarding ${card}`);
  }
  return move;
}

export function describeScores(view: MatchView): string {
  const [mine, theirs] = view.scores.match_scores;
  return `${mine ?? 0} to ${theirs ?? 0}`;
}
