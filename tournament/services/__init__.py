"""Writes to an event's structure: events, registrations, rounds, seating, schedules and new games.

Each takes plain values and returns the rows it made, or raises
``tournament.errors.Refusal`` having written nothing. Scoring a game is
the scoring app's business: a game made here has seats but no result yet, so
the callers that open games for play go through ``scoring.services.games``.
"""
