"""Constraints shared by the text fields of input records."""

from __future__ import annotations

NO_NUL = r"^[^\x00]*$"
"""PostgreSQL text cannot hold U+0000, so inputs refuse it with a 400 instead of failing later."""
