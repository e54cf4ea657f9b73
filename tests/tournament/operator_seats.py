"""What an operator's listing holds, for the tests of rounds."""

from __future__ import annotations

from tests.tournament.play import Client, bearer


async def operator_refs(client: Client, key: str, prefix: str) -> list[str]:
    refs: list[str] = []
    cursor = None
    while True:
        params = {
            "external_ref_prefix": prefix,
            "limit": "500",
            **({"cursor": cursor} if cursor else {}),
        }
        page = (await client.get("/operator/matches", params=params, headers=bearer(key))).json()
        refs += [m["external_ref"] for m in page["matches"]]
        cursor = page["next"]
        if cursor is None:
            return refs
