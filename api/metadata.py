"""What ``OPTIONS`` answers on the API (REST_FRAMEWORK["DEFAULT_METADATA_CLASS"])."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rest_framework.metadata import SimpleMetadata

if TYPE_CHECKING:  # rest_framework.views reads the settings, which name this module: no import at run time
    from rest_framework.request import Request
    from rest_framework.views import APIView


class SchemaMetadata(SimpleMetadata):
    """The view's name, description and formats. The fields each write takes are in the OpenAPI schema; DRF's own
    guess at them calls ``get_object()``, which the game views do not use (a 500)."""

    def determine_actions(self, request: Request, view: APIView) -> dict[str, Any]:
        del request, view
        return {}
