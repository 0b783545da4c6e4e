"""The score sheet (docs/score-sheet.md): the public format of one game, Django-free.

``record`` declares the hand record once; ``schema`` is its JSON Schema;
``reader`` checks a sheet and replays it through rules/; ``output`` turns the
replay into the result object (players by seat, names put in at the edge);
``text`` and ``describe`` put it into words. An import-linter contract keeps
Django out.
"""
