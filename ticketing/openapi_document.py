"""``python -m ticketing.openapi_document``: the OpenAPI document the service serves at
``/schema/openapi.json``, printed without a database or a server, for the clients' generators
(``scripts/clients``) and the test that the committed clients match it."""

from __future__ import annotations

import sys
from typing import Any

import msgspec

from app.settings import get_settings


def document() -> dict[str, Any]:
    from ticketing.application import create_app

    schema: dict[str, Any] = create_app(get_settings()).openapi_schema.to_schema()
    return schema


def main() -> None:
    text = msgspec.json.format(msgspec.json.encode(document()), indent=2)
    sys.stdout.write(text.decode() + "\n")


if __name__ == "__main__":
    main()
