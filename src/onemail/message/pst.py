"""Outlook PST/OST files through the optional extra ``onemail[pst]`` (placeholder)."""

from __future__ import annotations


def walk_pst(data, place, ctx, read):
    yield place.skipped("needs-extra", "PST/OST files need the optional extra onemail[pst]",
                        container="pst")
