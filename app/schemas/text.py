"""Constraints shared by the text fields of input records."""

from __future__ import annotations

NO_NUL = r"^[^\x00]*$"
"""PostgreSQL text cannot hold U+0000, so inputs refuse it with a 400 instead of failing later."""

_NOT_IN_EMAIL = r"@\x00-\x20\x7f-\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
EMAIL = rf"^[^{_NOT_IN_EMAIL}]+@[^{_NOT_IN_EMAIL}]+\.[^{_NOT_IN_EMAIL}]+$"
"""An e-mail address: something, ``@``, a domain with a dot; no spaces or control characters.

The excluded characters are spelled out rather than written ``\\s``, whose meaning differs between
Python and the ECMA-262 regular expressions of JSON Schema: the pattern is documented in the
OpenAPI document and must mean there exactly what it means here."""
