"""Subcommands of the ``onemail`` CLI, one module per area (see :mod:`onemail.cli`)."""
