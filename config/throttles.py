"""The API's throttle: anonymous reads, per client address (writes need a login, which axes guards); and the
username axes counts a sign-in attempt under.

The rate is REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["anon_read"] (``API_ANON_READ_RATE``), read on every
request rather than once at import as DRF's classes do, so a test can lower it with the ``settings`` fixture.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.throttling import AnonRateThrottle

if TYPE_CHECKING:  # rest_framework.views imports the throttle classes named in the settings: this module
    from rest_framework.views import APIView

logger = logging.getLogger(__name__)


class AnonReadThrottle(AnonRateThrottle):
    scope = "anon_read"

    def get_rate(self) -> str | None:
        rate = api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)
        return rate if isinstance(rate, str) else None

    def allow_request(self, request: Request, view: APIView) -> bool:
        if request.method not in SAFE_METHODS:
            return True
        try:
            return super().allow_request(request, view)
        except Exception:
            # The counts live in the cache. Redis down is answered by config.cache (counted per process
            # meanwhile); any other failure of it lets reads go on unthrottled rather than all failing.
            logger.warning("anonymous read throttle skipped: the cache is unavailable", exc_info=True)
            return True


# axes stores the username of each attempt in a column of 255 characters: longer, PostgreSQL refuses the row.
AXES_USERNAME_LENGTH = 255


def login_username(request: Any, credentials: dict[str, Any] | None = None) -> str:
    """The username a sign-in attempt is counted under (``AXES_USERNAME_CALLABLE``): as typed, cut to the
    column's length. No account's username is that long, so a longer one only ever counts wrong attempts."""
    given = credentials or getattr(request, "data", request.POST)
    username = given.get("username")
    return str(username or "")[:AXES_USERNAME_LENGTH]
