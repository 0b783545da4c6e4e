"""What happens in a game, written through named functions (hands, replay, games, standings, transfer).

``replay`` is the one place a stored hand becomes a rules/ input; ``hands``
holds every write to a game's hands, ``games`` opens games for play,
``standings`` ranks an event, ``transfer`` reads and writes whole events.
"""
