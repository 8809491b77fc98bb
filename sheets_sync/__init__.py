"""sheets-sync: sport mafia (FIIM) tournament tabulation inside the spreadsheets organizers use."""

__version__ = "0.1.0"  # pyproject.toml reads it from here (one place to bump)
