"""Three- and four-player matches beyond play: their fairness records and game records."""
