"""Webhooks: hand, game and match ends of an operator's matches, POSTed to the operator's URLs.

``subscriptions`` lets an operator subscribe URLs and read their deliveries; ``dispatcher``
follows the global event log and turns each end into deliveries; ``worker`` claims due
deliveries under a lease, signs and sends them, and reschedules failures; ``runner`` runs both
in the background of every server process. Storage and HTTP are behind ports
(``service.ports.webhook_*``, ``delivery_queue``, ``delivery_sender``).
"""
