"""The match use cases: create, join, seat, command, read."""
