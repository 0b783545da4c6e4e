"""The anonymous pages every reader sees the same: rendered once per version, path and language and kept in the
shared cache, so the page spectators reload most costs them a cache read, not a render.

Three layers, each cheaper than the one behind it:

- **This process's memory** (``recent``, and ``shared_page(..., remember=True)``: the standings page): the whole answer
  (ETag and body) kept ``PAGE_MICROCACHE_SECONDS`` (1 s; 0: off) in the ``pages`` cache alias, Django's
  LocMemCache bounded to a few hundred entries, and looked up before the event is read: a hit costs neither
  the database nor Redis. Only a 200 answer to an anonymous reader of a public event is kept, and only
  anonymous readers are answered from it (a signed-in reader has a session and sees their own menu). An event
  made private, or any other change, may go on being answered from it for at most those seconds.
- **The shared cache** (Redis with ``CACHE_URL``): the page of the current version, kept SHARED_PAGE_SECONDS.
- **One render per page at a time** when the version moves (each ended game of a round moves it): the process
  that takes the page's render lock (``cache.add``) renders it; the others answer the page's last rendering
  (kept beside the versioned entry) instead of rendering it too. That answer is never older than the render in
  progress, which replaces it; a page with no earlier rendering (or whose lock is stale) is rendered at once.

The anonymous page has an ETag (of its content: the page around the table may change within the cached time)
and answers 304 to it; a proxy may share it for PROXY_SECONDS, separately per cookie and language (a signed-in
reader sends a session cookie, and sees their own menu: never shared, ``private``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from django.conf import settings
from django.core.cache import cache, caches
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language

SHARED_PAGE_SECONDS = 30  # the table inside is always current; the rest (name, rounds) may lag this long
PROXY_SECONDS = 5  # a shared page a proxy may answer without asking: a burst of readers costs one request
RENDER_LOCK_SECONDS = 10  # a render that died (or takes longer) lets another process render the page
RECENT = "pages"  # the cache alias of each process's own memory (settings.CACHES)


def _hashed(*parts: str) -> str:
    # Hashed: the path is the visitor's, of any length and any characters.
    return hashlib.sha256(":".join(parts).encode()).hexdigest()


def _page(request: HttpRequest, name: str) -> str:
    """The page's key: its name, path and language (what the anonymous reader is shown)."""
    return _hashed(name, request.path, get_language())


def _recent_on(request: HttpRequest) -> bool:
    """Whether this process's memory answers the reader: it is on, and the reader is anonymous."""
    return settings.PAGE_MICROCACHE_SECONDS > 0 and not request.user.is_authenticated


def recent(request: HttpRequest, name: str) -> HttpResponse | None:
    """The anonymous page ``name`` (the normalised parameters it reads) as this process answered it within the
    last PAGE_MICROCACHE_SECONDS, or None: asked before anything is read from the database."""
    kept = caches[RECENT].get(_page(request, name)) if _recent_on(request) else None
    return _answer(request, *kept) if isinstance(kept, tuple) else None


def shared_page(
    request: HttpRequest, name: str, version: str, make: Callable[[], HttpResponse], *, remember: bool = False
) -> HttpResponse:
    """The page ``name`` of ``version`` (``name`` names the query parameters the page reads, normalised; the rest
    of the query string is not part of the key, so made-up addresses cost a cache read too, not a render and an
    entry each). ``remember``: keep the answer in this process's memory too (only for a public event's page)."""
    if request.user.is_authenticated:
        response = make()
        response["Cache-Control"] = "private, no-cache"
        return response
    page = _page(request, name)
    key = "page:" + _hashed(version, page)
    cached = cache.get(key)
    if not isinstance(cached, tuple):
        cached = _rendered(page, key, make)
        if isinstance(cached, HttpResponse):
            return cached  # not a 200: answered as it is, kept nowhere
    if remember and _recent_on(request):
        caches[RECENT].set(page, cached, settings.PAGE_MICROCACHE_SECONDS)
    return _answer(request, *cached)


def _rendered(page: str, key: str, make: Callable[[], HttpResponse]) -> tuple[str, bytes] | HttpResponse:
    """The page of the current version rendered here, or while another process renders it, its last
    rendering; a response that is not a 200 as it is."""
    lock, latest = "page-render:" + page, "page-latest:" + page
    locked = cache.add(lock, 1, RENDER_LOCK_SECONDS)
    if not locked:
        last = cache.get(latest)
        if isinstance(last, tuple):
            return last
    try:
        # Rendered by the lock's last holder while this process asked?
        cached = cache.get(key)
        if isinstance(cached, tuple):
            return cached
        response = make()
        if response.status_code != 200:
            return response
        answer = (f'"{hashlib.sha256(response.content).hexdigest()[:24]}"', response.content)
        cache.set_many({key: answer, latest: answer}, SHARED_PAGE_SECONDS)
        return answer
    finally:
        if locked:
            cache.delete(lock)


def _answer(request: HttpRequest, etag: str, content: bytes) -> HttpResponse:
    response = HttpResponseNotModified() if etag in request.headers.get("If-None-Match", "") else HttpResponse(content)
    response["ETag"] = etag
    response["Cache-Control"] = f"public, max-age={PROXY_SECONDS}"
    patch_vary_headers(response, ("Cookie", "Accept-Language"))
    return response
