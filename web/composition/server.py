"""The server's parts built from its settings, each use case handed the adapters of its ports,
and the work they do in the background while the server runs (``web/app.py`` serves them)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

from adapters.dns_resolver import SystemResolver
from adapters.ed25519_signer import key_from_file
from adapters.no_metrics import NoMetrics
from adapters.oidc_verifier import PyJwtVerifier
from adapters.postgres.database import open_database
from adapters.postgres.deadlines import PostgresDeadlines
from adapters.postgres.delivery_queue import PostgresDeliveryQueue
from adapters.postgres.event_store import Pool, open_pool
from adapters.postgres.identities import PostgresIdentities
from adapters.postgres.idle_matches import PostgresIdleMatches
from adapters.postgres.match_creations import PostgresMatchCreations
from adapters.postgres.player_invites import PostgresPlayerInvites
from adapters.postgres.players import PostgresPlayers
from adapters.postgres.quick_match import PostgresQuickMatchQueue
from adapters.postgres.readiness import DatabaseHealth, readiness_probe
from adapters.postgres.roles import privilege_warning
from adapters.postgres.seed_commitments import PostgresSeedCommitmentStore
from adapters.postgres.sessions import PostgresSessions
from adapters.postgres.stream_tickets import PostgresStreamTicketStore
from adapters.postgres.wakeups import PostgresWakeups
from adapters.postgres.webhook_dispatch import PostgresWebhookDispatch
from adapters.postgres.webhook_subscriptions import PostgresWebhookSubscriptions
from adapters.prometheus import PrometheusMetrics
from adapters.webhook_sender import UrllibSender
from service.accounts.sessions import Sessions
from service.accounts.sign_in import SignIn
from service.audit.log_checkpoints import LogTree
from service.audit.log_proofs import LogProver
from service.audit.notary import Notary
from service.audit.restore_check import GuardedEventStore, PublishingLogNotary, RestoreGuard
from service.bots.background import running_bots
from service.bots.runner import BotRunner
from service.errors import DatabaseUnavailable
from service.fairness.commitments import SeedCommitments
from service.matches.abandonment import Abandonment
from service.matches.deadline_timer import DeadlineTimer, running_deadlines
from service.matches.idempotent import IdempotentCreations
from service.matches.metered import MeteredMatchService
from service.matches.play import MatchPlays
from service.matches.stream_tickets import StreamTickets
from service.players.accounts import Accounts
from service.players.invites import Invitations
from service.players.projector import Projector
from service.players.quick_match import QuickMatch
from service.players.running import running_projector, running_quick_match_repair
from service.ports.clock import system_clock
from service.store.heard_versions import HeardVersions
from service.store.match_streams import MatchStreams
from service.tournament.feed import GlobalFeed
from service.tournament.matches import OperatorMatches
from service.tournament.operators import OperatorKeys
from service.tournament.rounds import Rounds
from service.tournament.webhooks.destinations import Destinations
from service.tournament.webhooks.guarded import GuardedSender
from service.tournament.webhooks.metered import MeteredSender
from service.tournament.webhooks.runner import running_webhooks
from service.tournament.webhooks.subscriptions import SubscriptionService
from web.composition.storage import Storage
from web.settings import Settings

Metrics = PrometheusMetrics | NoMetrics


def service_metrics(settings: Settings) -> Metrics:
    return PrometheusMetrics() if settings.metrics else NoMetrics()


@dataclass(frozen=True)
class Service:
    """Every part the app serves, each under the name its controllers' provider reads it by."""

    pool: Pool
    metrics: Metrics
    readiness: Callable[[], Awaitable[DatabaseHealth]]
    wakeups: PostgresWakeups
    restore_guard: RestoreGuard
    matches: MeteredMatchService
    bots: BotRunner
    plays: MatchPlays
    stream_tickets: StreamTickets
    creations: IdempotentCreations
    rounds: Rounds
    operator_matches: OperatorMatches
    operator_keys: OperatorKeys
    notary: Notary
    log_notary: PublishingLogNotary
    log_prover: LogProver
    feed: GlobalFeed
    accounts: Accounts
    sign_in: SignIn
    invitations: Invitations
    quick_match: QuickMatch
    webhooks: SubscriptionService


@asynccontextmanager
async def running_service(settings: Settings, metrics: Metrics) -> AsyncIterator[Service]:
    """The service's parts on an open database, with their background work running: webhook
    deliveries, bots, deadlines and abandonment, the players' projector, quick match's repair."""
    async with (
        _database_url(settings) as url,
        open_pool(
            url,
            min_size=settings.pool_min_size,
            max_size=settings.pool_max_size,
            timeout=settings.database_timeout_seconds,
            hold_timeout=settings.database_timeout_seconds,
            wait=False,  # serve 503s during an outage at startup rather than wait it out
        ) as pool,
    ):
        wakeups = PostgresWakeups(url)
        heard = HeardVersions()
        wakeups.watch(heard)
        await wakeups.start()
        storage = Storage.on(pool)
        published = storage.published_log(settings.published_log_path())
        guard = RestoreGuard(storage.log_tree(), published)
        store = GuardedEventStore(storage.store, metrics, guard)
        streams = MatchStreams(store, snapshot_every=settings.snapshot_every, heard=heard)
        metrics.watch(pool=pool.get_stats, waiting=wakeups.waiting)
        privileges = asyncio.create_task(_warn_if_too_powerful(pool))
        # Done before serving when the database answers; else it goes on in the background.
        await asyncio.wait({privileges}, timeout=settings.database_timeout_seconds)
        readiness = await asyncio.to_thread(readiness_probe, pool)
        commitments = SeedCommitments(PostgresSeedCommitmentStore(pool))
        matches = MeteredMatchService(streams, storage.registry, commitments, metrics=metrics)
        bots = BotRunner(matches)
        creations = IdempotentCreations(PostgresMatchCreations(pool))
        signer = await asyncio.to_thread(key_from_file, settings.signing_key_path())
        destinations = Destinations(SystemResolver(), settings.webhooks.allowed_networks)
        players = PostgresPlayers(pool, wake_here=wakeups.wake)
        accounts = Accounts(players, matches)
        matches.player_seat = accounts.seat_for_credential
        sender = _webhook_sender(settings, metrics, destinations)
        service = Service(
            pool=pool,
            metrics=metrics,
            readiness=readiness,
            wakeups=wakeups,
            restore_guard=guard,
            matches=matches,
            bots=bots,
            plays=MatchPlays(matches, bots),
            stream_tickets=StreamTickets(PostgresStreamTicketStore(pool)),
            creations=creations,
            rounds=Rounds(matches, creations),
            operator_matches=OperatorMatches(storage.registry, store),
            operator_keys=storage.operator_keys(),
            notary=Notary(signer, store, links=matches.fairness.links, receipts=settings.receipts),
            log_notary=PublishingLogNotary(
                signer, LogTree(store, storage.registry), published, system_clock
            ),
            log_prover=LogProver(store, storage.registry),
            feed=GlobalFeed(store, storage.registry),
            accounts=accounts,
            sign_in=signing_in(pool, accounts, settings),
            invitations=Invitations(
                PostgresPlayerInvites(pool, players), accounts, times=settings.players
            ),
            quick_match=QuickMatch(
                PostgresQuickMatchQueue(pool), accounts, timeout=settings.players.quick_match_wait
            ),
            webhooks=SubscriptionService(
                PostgresWebhookSubscriptions(pool), destinations, sender=sender
            ),
        )
        try:
            async with (
                running_webhooks(
                    store,
                    PostgresWebhookDispatch(pool),
                    PostgresDeliveryQueue(pool, settings.webhooks),
                    sender,
                    settings.webhooks,
                ),
                running_bots(bots, wakeups, storage.registry, store),
                running_deadlines(
                    DeadlineTimer(
                        PostgresDeadlines(pool),
                        matches,
                        abandonment=Abandonment(
                            PostgresIdleMatches(pool),
                            matches,
                            after_seconds=settings.abandon_after_seconds,
                        ),
                    ),
                    wakeups,
                ),
                running_projector(Projector(store, players, matches), wakeups),
                running_quick_match_repair(service.quick_match),
            ):
                yield service
        finally:
            privileges.cancel()
            sender.close()
            await players.close()
            await storage.store.close_wakeups()
            await wakeups.stop()


def signing_in(pool: Pool, accounts: Accounts, settings: Settings) -> SignIn:
    """Sessions, identities and the trusted issuers; a session's access token opens whatever
    the player's credential opens."""
    sessions = Sessions(PostgresSessions(pool), settings.accounts)
    accounts.access_holder = sessions.player_of
    verifier = PyJwtVerifier(
        settings.accounts.issuers,
        leeway_seconds=settings.accounts.leeway_seconds,
        cache_seconds=settings.accounts.jwks_cache_seconds,
    )
    return SignIn(accounts, sessions, PostgresIdentities(pool), verifier)


def _webhook_sender(
    settings: Settings, metrics: Metrics, destinations: Destinations
) -> MeteredSender:
    return MeteredSender(
        GuardedSender(
            UrllibSender(
                threads=settings.webhooks.batch_size, timeout=settings.webhooks.timeout_seconds
            ),
            destinations,
        ),
        metrics,
    )


async def _warn_if_too_powerful(pool: Pool) -> None:
    # Once per process, at WARNING: the service runs, but it could undo its own protections.
    # In the background, once the database answers: the service starts during an outage too.
    while True:
        try:
            async with pool.connection() as connection:
                warning = await privilege_warning(connection)
            break
        except DatabaseUnavailable:
            await asyncio.sleep(1.0)
    if warning is not None:
        logging.getLogger("gin.database").warning(warning)


@asynccontextmanager
async def _database_url(settings: Settings) -> AsyncIterator[str]:
    if settings.database_url:
        yield settings.database_url
        return
    # No URL: the embedded server (started, or reused if another worker already did).
    database = await asyncio.to_thread(open_database, None, data_dir=Path(settings.data_dir))
    try:
        yield database.service_url
    finally:
        await asyncio.to_thread(database.close)
