"""Subcommands of the ``onemail`` CLI, one module per area (see :mod:`onemail.cli`), and the
exit-code table every command's ``--help`` ends with (:mod:`onemail._cli._exits`)."""

from ._exits import HelpFormatter, exit_table

__all__ = ["HelpFormatter", "exit_table"]
