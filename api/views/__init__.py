"""The API's views: each parses its input, makes one call into a service and answers through a serializer."""
