"""The ports: what the use cases need from the world outside, as Protocols."""
