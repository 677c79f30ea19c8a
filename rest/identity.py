"""``GET /whoami``."""

from __future__ import annotations

from litestar import get

from app.schemas.identity import CurrentUser
from app.services.organizations import whoami
from rest.auth import Caller
from rest.docs import operation


@get(
    "/whoami",
    tags=["identity"],
    **operation(
        "The current user",
        service=whoami,
        text="The user behind the credential and their organization.",
    ),
)
async def get_whoami(request: Caller) -> CurrentUser:
    return await whoami(request.user)
