"""Player ratings and series points (issue 36): pure, the numbers in scheme files.

- :mod:`scoring.rating.scheme` — :class:`RatingScheme` (``elo-sides``: mafiaratings.com since
  2025; ``stepped``: a club's steps by rating band), loaded from a dict and checked;
- :mod:`scoring.rating.games` — :func:`replay`: rated games in the played order → every
  player's overall, red and black rating, and each game's changes;
- :mod:`scoring.rating.series` — :func:`series_points` (the Mafia World Tour's table) and
  :func:`series_standings` over each player's best events.

Reading the TOML files is the edges' business (:mod:`sheets_sync.league.ratings`).
"""

from scoring.rating.games import (BLACK, RED, GameChange, PlayerRating, RatedGame, RatingInputError, Ratings,
                                   Seat, StartRating, replay)
from scoring.rating.scheme import Band, KFactors, RatingScheme, RatingSchemeError
from scoring.rating.series import (EventResult, PointsTable, SeriesEntry, SeriesEvent, SeriesScheme,
                                   series_points, series_standings)

__all__ = ["BLACK", "RED", "Band", "EventResult", "GameChange", "KFactors", "PlayerRating", "PointsTable",
           "RatedGame", "RatingInputError", "RatingScheme", "RatingSchemeError", "Ratings", "Seat", "SeriesEntry",
           "SeriesEvent", "SeriesScheme", "StartRating", "replay", "series_points", "series_standings"]
