"""Settling disputes: game records, their offline verification, hand histories, replay."""
