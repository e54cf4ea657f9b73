// A tournament client's program against the types openapi-typescript generates (type-checked
// with `tsc --strict` by tests/api/test_generated_clients_type_check.py, never run): it creates
// a match, posts its legal actions as command bodies, follows the feed and reads a webhook's
// payload, with no cast.
import type { components, operations, webhooks } from "./api";

type Schemas = components["schemas"];
type CommandBody = NonNullable<operations["sendCommand"]["requestBody"]>["content"]["application/json"];
type View = operations["getMatchView"]["responses"][200]["content"]["application/json"];
type FeedPage = operations["readFeed"]["responses"][200]["content"]["application/json"];
type FeedEntry = FeedPage["entries"][number];
type MatchNews = NonNullable<webhooks["matchNews"]["post"]["requestBody"]>["content"]["application/json"];

async function send<T>(url: string, init: RequestInit): Promise<T> {
  const answer = await fetch(url, init);
  const body: T = await answer.json();
  return body;
}

export async function play(url: string, operatorKey: string): Promise<number> {
  const request: Schemas["CreateMatch"] = { options: { game_target: 10 } };
  const created = await send<Schemas["NewMatch"]>(`${url}/matches`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(request),
  });
  const tokens = new Map(created.seats.map((seat) => [seat.seat, seat.token]));
  const auth = (seat: number) => ({ Authorization: `Bearer ${tokens.get(seat) ?? ""}` });
  let view = await send<View>(`${url}/matches/${created.match_id}/view`, { headers: auth(0) });
  while (view.kind === "two_players" && view.winner === null && view.turn !== null) {
    const mine = await send<View>(`${url}/matches/${created.match_id}/view`, {
      headers: auth(view.turn),
    });
    const action = mine.legal_actions[0];
    if (action === undefined) break;
    const body: CommandBody = action; // a legal action is the command's body as it is
    view = await send<View>(`${url}/matches/${created.match_id}/commands`, {
      method: "POST",
      headers: { ...auth(view.turn), "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  }
  return follow(url, operatorKey, created.match_id);
}

async function follow(url: string, operatorKey: string, matchId: string): Promise<number> {
  let after = 0;
  for (;;) {
    const page = await send<FeedPage>(`${url}/feed?after=${after}&match_id=${matchId}`, {
      headers: { Authorization: `Bearer ${operatorKey}` },
    });
    for (const entry of page.entries) console.log(entry.version, entry.match_id, describe(entry));
    if (page.entries.length === 0) return after;
    after = page.next;
  }
}

// Each listed event type is its own type; one of a newer type (OtherEvent) falls to the default.
function describe(entry: FeedEntry): string {
  const event = entry.data;
  switch (event.type) {
    case "drew":
      return `seat ${event.seat} drew from the ${event.source}`;
    case "scored":
      return `${event.points} points to ${event.winner ?? "nobody"}`;
    default:
      return entry.type; // a type this program does not know yet: skipped
  }
}

export function onWebhook(body: string): string {
  const payload: MatchNews = JSON.parse(body);
  return `${payload.kind} ${payload.match_id} at ${payload.version}: ${payload.event.type}`;
}
