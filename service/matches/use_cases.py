"""The use cases of the service, with no HTTP in them: create a match, seat an invited player,
authenticate a seat, handle a seat's command, and read a match's events as a seat may see them.

Handling a command is load -> decide -> append at the loaded version, with every system step
the command makes due (the next deal) in the same append. A command is answered only after its
append has committed. A request reads its match's registry row once, when it is authenticated
(``Seated``), and hands it on; the events a command adds are folded once, where they are
decided, and the answer is made from the state they lead to.

An Idempotency-Key is kept by the event store, with the fingerprint of the request and the
result of the append it made: a retry is recognised before deciding and answered with the
state right after that append. A refused command appends nothing, so nothing remembers it.
"""

from __future__ import annotations

import asyncio
import hashlib
import uuid
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, NamedTuple

import msgspec

from domain import (
    Dealt,
    Event,
    HandDrawn,
    RuleOptions,
    Scored,
    StartMatch,
    decide,
    fold,
    new_match,
    redact_event,
)
from domain.commands import NoShow, Resign, SeatCommand, TimeOut
from domain.errors import MatchAlreadyEnded
from domain.events import SeatJoined
from domain.state import MatchState, Phase
from service.bots.seating import bot_levels
from service.errors import (
    DeadlinePassed,
    EntropyBeforeCommitment,
    IdempotencyKeyReused,
    InvalidRound,
    InviteNotFound,
    MatchNotFound,
    MissingToken,
    StaleVersion,
    UnknownCommitment,
    VersionConflict,
    WaitingForOpponent,
    WrongToken,
)
from service.fairness.commitments import SeedCommitments
from service.fairness.log import FairnessLog, fairness_stream, touches_fairness
from service.fairness.seeds import CHAIN_LINKS, new_secret
from service.matches import tokens
from service.matches.seat_ids import seat_ids
from service.matches.system_steps import system_steps
from service.ports import event_store
from service.ports.clock import Clock, system_clock
from service.ports.match_registry import (
    MatchRegistry,
    NewRound,
    RegisteredMatch,
    RegisteredSeat,
    Registration,
)
from service.store.match_streams import Loaded, MatchStreams, stream_id

if TYPE_CHECKING:
    from service.matches.tables import NewTable, RoundTables

SEATS = (0, 1)
ROUND_STARTS_AT_ONCE = 8  # of a round's matches, started at once (each holds a connection)
RECORDS_CACHED = 10_000
# A join races only the match's other seats and its clock: a few tries always get through.
JOIN_APPEND_TRIES = 8

# The seat a player's credential holds in a match (None: none), for credentials that are not
# seat tokens: ``service.players`` provides it.
PlayerSeat = Callable[[str, str], Awaitable[int | None]]


class CreatedMatch(msgspec.Struct, frozen=True):
    match_id: str
    tokens: dict[int, str]  # by seat: only the seats created with a token
    invite_code: str | None
    commitment: str  # chain 1's commitment of the match's seeds (hex)


class RoundMatch(msgspec.Struct, frozen=True, kw_only=True):
    external_ref: str | None = None
    players: int = 2  # the seats of the match: 3 or 4 are made by ``RoundTables``
    external_player_ids: Sequence[str | None] = ()
    bots: Sequence[str | None] = ()


class RoundRequest(msgspec.Struct, frozen=True, kw_only=True):
    round_id: str
    operator_id: str
    options: RuleOptions
    start_at: datetime | None
    matches: Sequence[RoundMatch]


class _NewMatch(NamedTuple):
    match: RegisteredMatch
    tokens: dict[int, str]
    invite_code: str | None
    events: list[Event]


_NOT_THE_ROUND = "this Idempotency-Key already registered a different round"


def _seats_opened(match: RegisteredMatch, token: str) -> list[int]:
    return [
        seat.seat
        for seat in match.seats
        if seat.token_hash is not None and tokens.secret_matches(token, seat.token_hash)
    ]


def _same_match(registered: RegisteredMatch, asked: RoundMatch) -> bool:
    """Whether a registered match of a round is the one ``asked`` describes."""
    player_ids = seat_ids(asked.external_player_ids, asked.players)
    levels = [*asked.bots, *[None] * asked.players][: asked.players]
    return (
        registered.external_ref == asked.external_ref
        and [seat.external_player_id for seat in registered.seats] == player_ids
        and [seat.bot for seat in registered.seats] == levels
    )


class SeatToken(msgspec.Struct, frozen=True):
    match_id: str
    seat: int
    token: str


class Seated(msgspec.Struct, frozen=True):
    """The seat a request speaks for, and its match's registry row as read to authenticate it."""

    match: RegisteredMatch
    seat: int


class CommandRequest(msgspec.Struct, frozen=True):
    command: SeatCommand
    idempotency_key: str | None = None
    if_match: int | None = None  # the version the client saw, if it insists on it

    def fingerprint(self, seat: int) -> bytes:
        """What a retry under the same key must repeat: seat, command and If-Match."""
        return hashlib.sha256(msgspec.json.encode([seat, self.command, self.if_match])).digest()


class MatchService:
    def __init__(
        self,
        streams: MatchStreams,
        registry: MatchRegistry,
        commitments: SeedCommitments | None = None,
        *,
        new_match_id: Callable[[], str] | None = None,
        chain_links: int = CHAIN_LINKS,
        clock: Clock = system_clock,
        player_seat: PlayerSeat | None = None,
    ) -> None:
        """``new_match_id`` (a UUID string each call; random by default) and ``chain_links``
        (the length of each seed chain) are for callers that play matches again by seed: the
        verifier's tests, which also need matches that run through several short chains.
        ``clock`` stamps each command with the time it was received (the turn clocks)."""
        self.clock = clock
        self.streams = streams
        self.registry = registry
        self.commitments = commitments
        self.fairness = FairnessLog(streams.store, links=chain_links)
        self._new_match_id = new_match_id or _new_match_id
        self.player_seat = player_seat
        # Only records of full matches are cached: nothing in them can change any more.
        self._full_records: OrderedDict[str, RegisteredMatch] = OrderedDict()

    async def create_match(
        self,
        *,
        options: RuleOptions,
        external_ref: str | None = None,
        entropy: Sequence[str] = (),
        invite_seat: int | None = None,
        operator_id: str | None = None,
        external_player_ids: Sequence[str | None] = (),
        commitment: str | None = None,
        bots: Sequence[str | None] = (),
        seat_tokens: Mapping[int, str] | None = None,
        match_id: str | None = None,
    ) -> CreatedMatch:
        """``seat_tokens`` gives seats the tokens a caller made (and linked to players);
        ``match_id`` is the id a caller already promised (a quick match's pair)."""
        server_secret = await self._server_secret(commitment, entropy)
        new = self._prepare(
            options=options,
            external_ref=external_ref,
            server_secret=server_secret,
            entropy=entropy,
            invite_seat=invite_seat,
            operator_id=operator_id,
            external_player_ids=external_player_ids,
            bots=bots,
            seat_tokens=seat_tokens,
            match_id=match_id,
        )
        await self.registry.create(
            new.match.match_id,
            external_ref=external_ref,
            server_secret=server_secret,
            seats=list(new.match.seats),
            invite_code_hash=tokens.secret_hash(new.invite_code) if new.invite_code else None,
            invite_seat=invite_seat,
            operator_id=operator_id,
        )
        return await self._start(new)

    async def create_round(
        self, round: RoundRequest, tables: RoundTables | None = None
    ) -> list[CreatedMatch]:
        """All the round's matches, or none: they are registered in one transaction (where a
        taken external ref refuses them all) before any of them starts. ``tables`` makes the
        matches of more than two seats."""
        prepared = [self._prepare_asked(round, match, tables) for match in round.matches]
        # Each match's seed chain is walked (and kept) in a thread while the registry's
        # transaction waits on the database: the walks are most of a round's computing.
        walked = asyncio.create_task(
            asyncio.to_thread(
                self.fairness.walk_chains, [n.match for n in prepared if isinstance(n, _NewMatch)]
            )
        )
        try:
            await self._register_round(round, prepared)
        finally:
            await walked
        # Fresh streams cannot conflict: their appends go side by side, a few at a time.
        gate = asyncio.Semaphore(ROUND_STARTS_AT_ONCE)

        async def start(new: _NewMatch | NewTable) -> CreatedMatch:
            async with gate:
                if isinstance(new, _NewMatch):
                    return await self._start(new)
                assert tables is not None  # only ``tables`` prepares a NewTable
                return await tables.start(new, round.options)

        return list(await asyncio.gather(*(start(new) for new in prepared)))

    def _prepare_asked(
        self, round: RoundRequest, asked: RoundMatch, tables: RoundTables | None
    ) -> _NewMatch | NewTable:
        if asked.players == len(SEATS):
            return self._prepare(
                options=round.options,
                external_ref=asked.external_ref,
                server_secret=new_secret(),
                operator_id=round.operator_id,
                external_player_ids=asked.external_player_ids,
                bots=asked.bots,
            )
        if tables is None:
            raise InvalidRound("this service makes rounds of two-player matches only")
        return tables.prepare(asked, round.operator_id, self._new_match_id())

    async def _register_round(
        self, round: RoundRequest, prepared: Sequence[_NewMatch | NewTable]
    ) -> None:
        await self.registry.create_round(
            NewRound(
                round_id=round.round_id,
                operator_id=round.operator_id,
                start_at=round.start_at,
                matches=tuple(
                    Registration(
                        match_id=new.match.match_id,
                        external_ref=new.match.external_ref,
                        server_secret=new.match.server_secret,
                        seats=new.match.seats,
                    )
                    for new in prepared
                ),
            )
        )

    async def resume_round(
        self, round: RoundRequest, match_ids: Sequence[str], tables: RoundTables | None = None
    ) -> list[CreatedMatch]:
        """Finish a round that a request registered and never answered (it died or failed
        part way): each match gets new seat tokens, since the first ones were never sent, and
        any match not yet started starts. The answer is the one the first request would have
        given, with the new tokens. Every match is checked against ``round`` before anything
        changes: another round under the same key is refused whole."""
        if len(match_ids) != len(round.matches):
            raise IdempotencyKeyReused(_NOT_THE_ROUND)
        found = [
            await self._registered_as(match_id, asked, round.options, tables)
            for match_id, asked in zip(match_ids, round.matches, strict=True)
        ]
        gate = asyncio.Semaphore(ROUND_STARTS_AT_ONCE)

        async def resume(registered: RegisteredMatch, loaded: Loaded | None) -> CreatedMatch:
            async with gate:
                if loaded is not None:
                    return await self._resume(round.options, registered, loaded)
                assert tables is not None  # checked by ``_registered_as``
                return await tables.resume(registered, round.options)

        return list(await asyncio.gather(*(resume(*pair) for pair in found)))

    async def _registered_as(
        self, match_id: str, asked: RoundMatch, options: RuleOptions, tables: RoundTables | None
    ) -> tuple[RegisteredMatch, Loaded | None]:
        """The registered match and, of two seats, its stream (more seats: checked by
        ``tables``), if it is the match ``asked`` for."""
        registered = await self.registry.get(match_id)
        if registered is None:
            raise MatchNotFound(f"there is no match {match_id}")
        if asked.players != len(SEATS):
            if tables is None or not _same_match(registered, asked):
                raise IdempotencyKeyReused(_NOT_THE_ROUND)
            await tables.check(registered, options, _NOT_THE_ROUND)
            return registered, None
        loaded = await self.streams.load(match_id)
        started_otherwise = loaded.version > 0 and loaded.state.options != options
        if started_otherwise or not _same_match(registered, asked):
            raise IdempotencyKeyReused(_NOT_THE_ROUND)
        return registered, loaded

    async def _resume(
        self, options: RuleOptions, registered: RegisteredMatch, loaded: Loaded
    ) -> CreatedMatch:
        match_id = registered.match_id
        made = {seat.seat: tokens.new_token() for seat in registered.seats if seat.bot is None}
        hashes = {seat: tokens.secret_hash(token) for seat, token in made.items()}
        await self.registry.replace_seat_tokens(match_id, hashes)
        self._full_records.pop(match_id, None)  # it holds the old hashes
        match = await self.match(match_id)
        await self._finish_start(options, match, loaded)
        return CreatedMatch(match_id, made, None, self.fairness.commitment(match))

    async def start_registered(self, match_id: str, options: RuleOptions) -> None:
        """Finish creating a registered match whose creation stopped part way (its process
        died): start it unless it has started, and write the fairness records due. Its seats
        keep the tokens they were registered with."""
        match = await self.match(match_id)
        await self._finish_start(options, match, await self.streams.load(match_id))

    async def _finish_start(
        self, options: RuleOptions, match: RegisteredMatch, loaded: Loaded
    ) -> None:
        if loaded.version == 0:
            opened = await self.fairness.store.stream_version(fairness_stream(match.match_id))
            new = _NewMatch(match, {}, None, decide(new_match(), StartMatch(options)))
            await self._start(new, opened=opened or None)
            return
        # Started, perhaps without its fairness records after the cut: sync writes what is due.
        await self.fairness.sync(match, loaded.state)

    def _prepare(
        self,
        *,
        options: RuleOptions,
        external_ref: str | None,
        server_secret: bytes,
        entropy: Sequence[str] = (),
        invite_seat: int | None = None,
        operator_id: str | None,
        external_player_ids: Sequence[str | None],
        bots: Sequence[str | None],
        seat_tokens: Mapping[int, str] | None = None,
        match_id: str | None = None,
    ) -> _NewMatch:
        """A match's registry row, seat tokens and first events, not yet stored anywhere."""
        levels = bot_levels(bots, invite_seat)
        entropy = [*entropy, "", ""][:2]
        player_ids = seat_ids(external_player_ids, len(SEATS))
        given = seat_tokens or {}
        made = {
            seat: given.get(seat) or tokens.new_token()
            for seat in SEATS
            if seat != invite_seat and levels[seat] is None
        }
        match = RegisteredMatch(
            match_id=match_id or self._new_match_id(),
            external_ref=external_ref,
            server_secret=server_secret,
            created_at=datetime.now(UTC),
            seats=tuple(
                RegisteredSeat(
                    seat,
                    tokens.secret_hash(made[seat]) if seat in made else None,
                    entropy[seat],
                    player_ids[seat],
                    levels[seat],
                )
                for seat in SEATS
            ),
            operator_id=operator_id,
        )
        invite_code = tokens.new_invite_code() if invite_seat is not None else None
        return _NewMatch(match, made, invite_code, decide(new_match(), StartMatch(options)))

    async def _start(self, new: _NewMatch, *, opened: int | None = None) -> CreatedMatch:
        """Open the fairness stream of a registered match (unless ``opened``: its version,
        opened already) and append its first events."""
        steps, state = system_steps(
            fold(new.events), new.match, links=self.fairness.links, now=self.clock()
        )
        if opened is None:
            opened = await self.fairness.open(new.match)
        after, _ = await self.streams.append(
            new.match.match_id, Loaded(new_match(), 0), [*new.events, *steps], state=state
        )
        await self.fairness.sync(new.match, after.state, written=opened)
        return CreatedMatch(
            new.match.match_id, new.tokens, new.invite_code, self.fairness.commitment(new.match)
        )

    async def _server_secret(self, commitment: str | None, entropy: Sequence[str]) -> bytes:
        """The secret behind a commitment made earlier, or a new one. A seat's entropy is only
        taken once the server has committed to its seeds (see ``service.fairness.seeds``)."""
        if commitment is not None:
            if self.commitments is None:
                raise UnknownCommitment("this service does not take commitments")
            return await self.commitments.claim(commitment)
        if any(entropy):
            raise EntropyBeforeCommitment(
                "entropy sent with a new match needs the server to commit first: "
                'POST /commitments, then send its "commitment" with the entropy'
            )
        return new_secret()

    async def join(
        self, invite_code: str, entropy: str = "", token: str | None = None
    ) -> SeatToken:
        """``token``: the one a caller made for the seat (and linked to a player)."""
        token = token or tokens.new_token()
        code_hash = tokens.secret_hash(invite_code)
        invited = await self.registry.invited_match(code_hash)
        # A match that ended before its invite was used (a no-show, an abandonment) seats
        # nobody: the invite is left as it was.
        if invited is not None and (await self.streams.load(invited)).state.phase is (
            Phase.MATCH_OVER
        ):
            raise MatchAlreadyEnded("the match is over: it ended before this invite was used")
        seated = await self.registry.accept_invite(code_hash, tokens.secret_hash(token), entropy)
        if seated is None:
            raise InviteNotFound("the invite code is unknown or has already been used")
        match_id, seat = seated
        match = await self.match(match_id)
        if len(match.seats) == 2:  # a three- or four-player match cuts in its own stream
            await self._announce_join(match, seat)
        return SeatToken(match_id, seat, token)

    async def _announce_join(self, match: RegisteredMatch, seat: int) -> None:
        """Append the join, and the cut that was waiting for this seat, to the match. The seat
        is already the player's, so a conflict (another seat's join, a clock) is retried on
        the new head rather than dropped: the join must reach the record."""
        for attempt in range(JOIN_APPEND_TRIES):
            loaded = await self.streams.load(match.match_id)
            joined: list[Event] = [SeatJoined(seat=seat)]
            steps, state = system_steps(
                fold(joined, loaded.state),
                match,
                links=self.fairness.links,
                now=self.clock(),
            )
            try:
                after, _ = await self.streams.append(
                    match.match_id, loaded, [*joined, *steps], state=state
                )
            except event_store.ConcurrencyConflict:
                if attempt + 1 == JOIN_APPEND_TRIES:
                    raise
                continue
            await self.fairness.sync(match, after.state)
            return

    async def match(self, match_id: str) -> RegisteredMatch:
        record = self._full_records.get(match_id)
        if record is not None:
            self._full_records.move_to_end(match_id)
            return record
        record = await self.registry.get(match_id)
        if record is None:
            raise MatchNotFound(f"there is no match {match_id}")
        if record.full:
            self._full_records[match_id] = record
            if len(self._full_records) > RECORDS_CACHED:
                self._full_records.popitem(last=False)
        return record

    async def authenticate(self, match_id: str, token: str | None) -> Seated:
        """The seat ``token`` opens in this match; refused unless it opens exactly one."""
        match = await self.match(match_id)
        if token is None:
            raise MissingToken("send the seat's token as 'Authorization: Bearer <token>'")
        if self.player_seat is not None and not token.startswith(tokens.TOKEN_PREFIX):
            seat = await self.player_seat(token, match_id)
            if seat is None:
                raise WrongToken("this credential does not hold a seat in this match")
            return Seated(match, seat)
        seats = _seats_opened(match, token)
        if len(seats) != 1 and self._full_records.pop(match_id, None) is not None:
            # A round finished by a retry gives its seats new tokens (``resume_round``): a
            # record cached before then is read again once.
            match = await self.match(match_id)
            seats = _seats_opened(match, token)
        if len(seats) != 1:
            raise WrongToken("this token does not open a seat in this match")
        return Seated(match, seats[0])

    async def seat_of(self, match_id: str, token: str | None) -> int:
        return (await self.authenticate(match_id, token)).seat

    async def load(self, match: str | RegisteredMatch) -> Loaded:
        """A match's state now; given its registry row, the match is known to exist."""
        if isinstance(match, str):
            match = await self.match(match)
        return await self.streams.load(match.match_id)

    async def sync_fairness(self, match: RegisteredMatch, state: MatchState) -> None:
        await self.fairness.sync(match, state)

    async def handle(self, match: RegisteredMatch, seat: int, request: CommandRequest) -> Loaded:
        """Decide and append ``request.command`` for ``seat`` of ``match`` (the registry row
        the request was authenticated with); the state after it, as committed."""
        received_at = self.clock()
        if not match.full:
            raise WaitingForOpponent("the invited player has not joined yet")
        match_id = match.match_id
        loaded = await self.streams.load(match_id)
        key = fingerprint = None
        if request.idempotency_key is not None:
            key = _store_key(match_id, seat, request.idempotency_key)
            fingerprint = request.fingerprint(seat)
            # Looked up after loading: a first attempt the lookup misses commits after the
            # load too, so this attempt is decided on the same version or meets a conflict, and
            # the store answers its append with the first one's.
            first = await self.streams.store.find_idempotent(key)
            if first is not None:
                return await self._answer_again(match_id, first, fingerprint)
        if request.if_match is not None and request.if_match != loaded.version:
            raise StaleVersion(
                f"the match is at version {loaded.version}, not {request.if_match}; "
                "load the view again"
            )
        require_in_time(loaded.state, seat, request.command, received_at)
        events = decide(loaded.state, request.command)
        steps, state = system_steps(
            fold(events, loaded.state), match, links=self.fairness.links, now=received_at
        )
        try:
            after, _ = await self.streams.append(
                match_id,
                loaded,
                [*events, *steps],
                state=state,
                idempotency_key=key,
                fingerprint=fingerprint,
            )
        except event_store.ConcurrencyConflict as conflict:
            error = StaleVersion if request.if_match is not None else VersionConflict
            raise error(
                f"the match moved on to version {conflict.current} while this command was "
                "handled; nothing was applied"
            ) from None
        if touches_fairness([*events, *steps]):
            await self.fairness.sync(match, after.state)
        return after

    async def time_out(self, match_id: str) -> Loaded | None:
        """The timeout of the seat on the clock, with its default move, if its deadline has
        passed; None when nothing is due (a bot's seat never times out) or another command
        got there first. Appended at the loaded version, like any command."""
        match = await self.match(match_id)
        loaded = await self.streams.load(match_id)
        clock, now = loaded.state.clock, self.clock()
        if clock is None or clock.seat is None or clock.due_at is None or now < clock.due_at:
            return None
        if clock.kind == "join":
            # Read afresh, not from the cache: the player may have joined a moment ago.
            match = await self.registry.get(match_id) or match
            if match.full:
                return None
            forfeit = match.operator_id is not None and loaded.state.options.no_show == "forfeit"
            command: NoShow | TimeOut = NoShow(seat=clock.seat, at=now, forfeit=forfeit)
        elif match.seats[clock.seat].bot is not None:
            return None
        else:
            command = TimeOut(seat=clock.seat, at=now)
        events = decide(loaded.state, command)
        try:
            return await self.append_decided(match, loaded, events, now=now)
        except event_store.ConcurrencyConflict:
            return None

    async def append_decided(
        self, match: RegisteredMatch, loaded: Loaded, events: list[Event], *, now: datetime
    ) -> Loaded:
        """Append ``events``, decided on ``loaded`` at ``now``, with the system steps they
        make due, at the loaded version (``ConcurrencyConflict`` if the match moved on)."""
        steps, state = system_steps(
            fold(events, loaded.state), match, links=self.fairness.links, now=now
        )
        after, _ = await self.streams.append(match.match_id, loaded, [*events, *steps], state=state)
        if touches_fairness([*events, *steps]):
            await self.fairness.sync(match, after.state)
        return after

    async def _answer_again(
        self, match_id: str, first: event_store.IdempotentAppend, fingerprint: bytes
    ) -> Loaded:
        """The answer to a retry: the state right after the append its first attempt made."""
        if first.fingerprint != fingerprint or first.result.stream_id != stream_id(match_id):
            raise IdempotencyKeyReused(
                "this Idempotency-Key was already used for a different command"
            )
        answered = await self.streams.load_at(match_id, first.result.last_version)
        # With its first append, so a receipt signs the hash the store kept for it.
        return Loaded(answered.state, answered.version, first.result)

    async def events(
        self, match_id: str, seat: int | None, *, after_version: int
    ) -> list[tuple[int, Event]]:
        """The events after ``after_version`` as ``seat`` (None: a spectator) may see them now."""
        await self.match(match_id)
        events = await self.streams.read_events(match_id, after_version=max(after_version, 0))
        return redact_events(events, seat)


def require_in_time(
    state: MatchState, seat: int, command: SeatCommand, at: datetime, *, named: int | None = None
) -> None:
    """A seat's move received after its deadline is refused: the timeout is what applies.
    Resigning is never too late. ``named`` is the seat the refusal names when it is not
    ``seat`` (a match seat playing at a table of a larger match)."""
    clock = state.clock
    if clock is None or clock.seat != seat or clock.due_at is None or at <= clock.due_at:
        return
    if not isinstance(command, Resign):
        raise DeadlinePassed(
            f"seat {seat if named is None else named}'s time ran out at "
            f"{clock.due_at.isoformat()}; the server makes its default move"
        )


def redact_events(events: Sequence[tuple[int, Event]], seat: int | None) -> list[tuple[int, Event]]:
    """Each event as ``seat`` may see it, given that these events run up to the present.

    A hand is over, and its cards may be shown, if the events after it hold its end.
    """
    redacted: list[tuple[int, Event]] = []
    hand_over = False
    for version, event in reversed(events):
        if isinstance(event, Scored | HandDrawn):
            hand_over = True
        redacted.append((version, redact_event(event, seat, hand_over)))
        if isinstance(event, Dealt):
            hand_over = True  # everything before a deal belongs to a finished hand
    redacted.reverse()
    return redacted


def _new_match_id() -> str:
    return str(uuid.uuid4())


def _store_key(match_id: str, seat: int, key: str) -> str:
    return f"command:{match_id}:{seat}:{key}"
