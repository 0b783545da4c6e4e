"""Rankings across events, as pure functions of the results (docs/rankings.md has every formula and its sources).

- ``mers``: the EMA's ranking (MERS): each result's score, each event's weight, the two-part average.
- ``calendar``: when a result counts and at what time factor, the weekly publication and the frozen weeks.
- ``changes``: what moved between two dates.
- ``ratings``: a league's rating, game by game: Tenhou's R, or Elo for head-to-head games.
"""
