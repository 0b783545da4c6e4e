"""A script's sign-in: username and password in, its API token out."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers


class TokenRequestSerializer(serializers.Serializer[Any]):
    username = serializers.CharField(max_length=150)
    # As typed: a password may begin or end with a space.
    password = serializers.CharField(max_length=128, trim_whitespace=False, style={"input_type": "password"})


class TokenSerializer(serializers.Serializer[Any]):
    token = serializers.CharField(help_text="send it as `Authorization: Token <token>`; the same token each time")
