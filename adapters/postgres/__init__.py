"""PostgreSQL adapters: every SQL statement of the project."""
