"""The ``snl`` command line: one module per command family; ``main.main`` runs it."""
