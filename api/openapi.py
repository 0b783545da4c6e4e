"""What the OpenAPI schema needs beyond drf-spectacular's defaults."""

from __future__ import annotations

from typing import Any, ClassVar

from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import Direction, OpenApiParameter
from rest_framework import serializers


class OpenObjectSerializer(serializers.Serializer[Any]):
    """A JSON object with the declared fields and possibly others: the schema says so (``additionalProperties``)."""

    additional_properties: ClassVar[dict[str, Any]] = {}


# drf-spectacular registers an extension when it is subclassed (an untyped __init_subclass__), and documents
# _map_serializer(..., bypass_extensions=True) as the way for an extension to start from the usual schema.
class OpenObjectExtension(OpenApiSerializerExtension):  # type: ignore[no-untyped-call]
    """Maps an OpenObjectSerializer as usual and adds its ``additionalProperties``."""

    target_class = OpenObjectSerializer
    match_subclasses = True

    def map_serializer(self, auto_schema: AutoSchema, direction: Direction) -> dict[str, Any]:
        schema: dict[str, Any] = auto_schema._map_serializer(  # type: ignore[no-untyped-call]
            self.target, direction, bypass_extensions=True
        )
        schema["additionalProperties"] = self.target.additional_properties
        return schema


IF_MATCH = OpenApiParameter(
    "If-Match",
    str,
    OpenApiParameter.HEADER,
    required=False,
    description="the game's version (its ETag) the change is based on",
)
ETAG = OpenApiParameter(
    "ETag",
    str,
    OpenApiParameter.HEADER,
    response=[200, 201],
    description='the game\'s version, quoted (e.g. "3"): send it back as If-Match',
)
