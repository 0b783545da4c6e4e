"""Online game logs (Tenhou mjlog XML, tenhou.net/6 JSON) read into score sheets, Django-free.

``model`` holds what a log says: a score sheet naming the platform's players,
and the numbers the platform itself recorded; ``mjlog`` and ``tenhou6`` read
the two formats; ``read`` tells them apart; ``check`` replays the sheet and
compares every hand with the log.
"""
