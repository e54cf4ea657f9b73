"""The HTTP face of the service: the Litestar app, one thin controller per resource."""
