"""``/players``: sign up, the player's credential, their matches and their live inbox."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from typing import Annotated, cast

from litestar import Controller, get, post
from litestar.datastructures import State
from litestar.di import NamedDependency
from litestar.params import JSONBody, QueryParameter
from litestar.response import ServerSentEvent, ServerSentEventMessage
from litestar.status_codes import HTTP_200_OK, HTTP_201_CREATED

from service.errors import DatabaseUnavailable
from service.matches.tokens import bearer_token
from service.players.accounts import PAGE_LIMIT, Accounts
from service.ports.players import Player, inbox_wakeup
from service.ports.wakeups import Wakeups
from web.docs import problems
from web.params import Authorization, Bots, LastEventId, WakeupsDependency
from web.player_schemas import (
    CreatePlayerMatch,
    MyMatch,
    MyMatches,
    NewCredential,
    NewPlayer,
    NewPlayerMatch,
    PlayerProfile,
    SignUp,
)
from web.schemas import MAX_VERSION, SeatInvite, SeatToken
from web.stream import resume_after

PLAYER_CREDENTIAL = "PlayerCredential"
KEEPALIVE_SECONDS = 15.0
REREAD_SECONDS = 60.0  # without a wake-up (they are hints, and one can be lost)
OUTAGE_RETRY_SECONDS = 1.0

AccountsDependency = NamedDependency[Accounts]
Before = Annotated[
    int | None,
    QueryParameter(name="before", ge=0, description="The ``next`` of the previous page"),
]
Limit = Annotated[int, QueryParameter(name="limit", ge=1, le=PAGE_LIMIT)]
AfterSeq = Annotated[
    int, QueryParameter(name="after", ge=0, le=MAX_VERSION, description="Only notices after this")
]


def provide_accounts(state: State) -> Accounts:
    return cast(Accounts, state.accounts)


class PlayersController(Controller):
    path = "/players"
    tags = ("players",)

    @post("/", status_code=HTTP_201_CREATED, summary="Sign up", responses=problems(400, 422))
    async def sign_up(self, data: JSONBody[SignUp], accounts: AccountsDependency) -> NewPlayer:
        """An anonymous account with a display name. Keep the credential: it is shown once."""
        signed = await accounts.sign_up(data.display_name)
        return NewPlayer(
            player_id=signed.player.player_id,
            display_name=signed.player.display_name,
            credential=signed.credential,
        )

    @get(
        "/me",
        summary="Who the credential is",
        security=[{PLAYER_CREDENTIAL: []}],
        responses=problems(400, 401),
    )
    async def me(
        self, accounts: AccountsDependency, authorization: Authorization = None
    ) -> PlayerProfile:
        player = await player_of(accounts, authorization)
        return PlayerProfile(
            player_id=player.player_id,
            display_name=player.display_name,
            created_at=player.created_at,
        )

    @post(
        "/me/credential",
        status_code=HTTP_200_OK,
        summary="Replace the credential",
        security=[{PLAYER_CREDENTIAL: []}],
        responses=problems(400, 401),
    )
    async def rotate(
        self, accounts: AccountsDependency, authorization: Authorization = None
    ) -> NewCredential:
        """A new credential; the one sent stops working. Seats and matches stay the player's."""
        rotated = await accounts.rotate(bearer_token(authorization))
        return NewCredential(player_id=rotated.player.player_id, credential=rotated.credential)

    @post(
        "/me/matches",
        status_code=HTTP_201_CREATED,
        summary="Create a match as this player",
        security=[{PLAYER_CREDENTIAL: []}],
        responses=problems(400, 401, 422),
    )
    async def create_match(
        self,
        data: JSONBody[CreatePlayerMatch],
        accounts: AccountsDependency,
        bots: Bots,
        authorization: Authorization = None,
    ) -> NewPlayerMatch:
        player = await player_of(accounts, authorization)
        created = await accounts.create_match(
            player,
            options=data.options,
            players=data.players,
            bots=[None, *[data.bot] * (data.players - 1)] if data.bot else (),
        )
        if data.bot:
            await bots.resume(created.match_id)
        return NewPlayerMatch(
            match_id=created.match_id,
            seats=[SeatToken(seat, token) for seat, token in sorted(created.tokens.items())],
            commitment=created.commitment,
            invite_code=created.invite_code,
            invites=[SeatInvite(seat, code) for seat, code in sorted(created.invite_codes.items())],
        )

    @get(
        "/me/matches",
        summary="My matches",
        security=[{PLAYER_CREDENTIAL: []}],
        responses=problems(400, 401),
    )
    async def my_matches(
        self,
        accounts: AccountsDependency,
        authorization: Authorization = None,
        before: Before = None,
        limit: Limit = 20,
    ) -> MyMatches:
        """In play, waiting and finished, the latest to move first."""
        rows = await accounts.my_matches(bearer_token(authorization), before=before, limit=limit)
        return MyMatches(
            matches=[
                MyMatch(
                    match_id=row.match_id,
                    seat=row.seat,
                    status=row.status,
                    turn=row.turn,
                    your_turn=row.status == "in_progress" and row.turn == row.seat,
                    deadline=row.deadline,
                    version=row.version,
                )
                for row in rows
            ],
            next=rows[-1].position if len(rows) == limit else None,
        )

    @get(
        "/me/inbox",
        summary="My live inbox (Server-Sent Events)",
        media_type="text/event-stream",
        security=[{PLAYER_CREDENTIAL: []}],
        responses=problems(400, 401),
    )
    async def inbox(
        self,
        accounts: AccountsDependency,
        wakeups: WakeupsDependency,
        authorization: Authorization = None,
        after: AfterSeq = 0,
        last_event_id: LastEventId = None,
    ) -> ServerSentEvent:
        """Every notice for this player, in order, across all their matches: ``id`` its number,
        ``event`` its kind (your_turn, match_started, match_ended, invitation_received,
        rematch_offered). Reconnect with ``Last-Event-ID`` to resume after the last one."""
        player = await player_of(accounts, authorization)
        start = resume_after(last_event_id, after)
        return ServerSentEvent(_notices(accounts, wakeups, player, start))


async def player_of(accounts: Accounts, authorization: str | None) -> Player:
    return await accounts.authenticate(bearer_token(authorization))


async def _notices(
    accounts: Accounts, wakeups: Wakeups, player: Player, seq: int
) -> AsyncIterator[ServerSentEventMessage]:
    while True:
        # Taken before reading, so a notice committed between the read and the wait wakes us.
        waiter = wakeups.waiter(inbox_wakeup(player.player_id))
        try:
            try:
                notices = await accounts.inbox(player, after=seq)
            except DatabaseUnavailable:
                yield ServerSentEventMessage(data=None, comment="database unavailable")
                await waiter.wait(OUTAGE_RETRY_SECONDS)
                continue
            for notice in notices:
                yield ServerSentEventMessage(
                    data=notice.payload.decode(), event=notice.kind, id=notice.seq
                )
                seq = notice.seq
            if len(notices) == PAGE_LIMIT:
                continue  # more to read at once
            # Woken, the inbox reads at once. Not woken, it still reads again now and then (a
            # wake-up can be lost), each inbox on its own timer: inboxes opened together (a
            # restart reconnects them all) would otherwise read all at once, and the notices
            # of the moment would queue behind a thousand reads for the pool.
            waiting = asyncio.ensure_future(waiter.wait(REREAD_SECONDS * random.uniform(0.5, 1.0)))
            try:
                while not (await asyncio.wait({waiting}, timeout=KEEPALIVE_SECONDS))[0]:
                    yield ServerSentEventMessage(data=None, comment="keep-alive")
            finally:
                waiting.cancel()  # also when the client goes away mid-wait
        finally:
            waiter.close()
