"""The edge: writes that come from outside, through the API and through the web's pages alike.

A write from outside is answered once however often it arrives (``keys``: an
``Idempotency-Key`` header, the entry form's hidden key, the offline queue
sending a hand again), by a writer the edge names and lets in (``writers``: a
signed-in organiser or referee, or the players at a table with its code).
The API and the web call the edge and the services behind it; neither
repeats what it decides.
"""
