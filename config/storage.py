"""Static files under names that carry their content's hash, so that a new release's pages ask for new files.

The referee's entry page is kept by a service worker that serves static files from its cache first (it must
open with no network): under plain names, the first load after a release would run the old offline.js with the
new page. With the content's hash in the name, a new page's files are new addresses, fetched from the network.

Before ``collectstatic`` has written the manifest (the tests, the quick start's development server) a name has
no hashed form: the plain name is served, as before.
"""

from __future__ import annotations

from whitenoise.storage import CompressedManifestStaticFilesStorage


class HashedStaticFiles(CompressedManifestStaticFilesStorage):  # type: ignore[misc]  # WhiteNoise ships no types
    manifest_strict = False

    def stored_name(self, name: str) -> str:
        try:
            return str(super().stored_name(name))
        except ValueError:  # not collected yet: no file under STATIC_ROOT to hash
            return name
