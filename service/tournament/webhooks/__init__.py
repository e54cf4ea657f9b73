"""Webhooks: hand, game and match ends of an operator's matches, POSTed to the operator's URLs.

``dispatcher`` follows the global event log and turns each end into delivery rows;
``worker`` claims due deliveries under a lease, signs and sends them, and reschedules failures;
``runner`` runs both in the background of every server process.
"""
