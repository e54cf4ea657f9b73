"""The HTTP face of the service: one thin controller per resource."""
