"""The ports: what the use cases need from the world outside, as Protocols.

Any method of a port backed by a database may raise ``service.errors.DatabaseUnavailable``
when the database cannot be reached in time: nothing was done, and the same call may be made
again later. The adapters raise it instead of their driver's errors.
"""
