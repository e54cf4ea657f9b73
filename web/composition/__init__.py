"""The composition root: the adapters built and handed to the use cases, for the server
(``server``) and for the ``gin`` commands that open the database (``storage``). Importing
this package imports neither, so ``gin`` loads only what its command needs."""
