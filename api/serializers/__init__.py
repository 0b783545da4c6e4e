"""The API's request and response bodies, as the OpenAPI schema declares them."""
