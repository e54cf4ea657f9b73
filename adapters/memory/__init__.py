"""In-memory adapters: one for every port, for fast use-case tests."""
