"""The ``gin`` command line: serve, db, operator keys, verify and audit."""
