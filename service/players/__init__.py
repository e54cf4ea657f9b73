"""Players: anonymous device accounts, their matches, their inbox, and finding opponents."""
