"""The REST API under /api/v1/: DRF views and serializers, and the shared parts every endpoint uses.

Only this package imports DRF (an import-linter contract keeps it so). Views
parse input, make one call into a service and answer through the serializer
the OpenAPI schema declares; refused input and version conflicts are raised
by the services and answered by one exception handler (``api.errors``).
"""
