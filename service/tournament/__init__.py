"""Tournament integration: operators and their keys, the global feed, webhooks."""
