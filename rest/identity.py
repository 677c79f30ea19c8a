"""``GET /whoami``."""

from __future__ import annotations

from litestar import get
from litestar.di import NamedDependency

from app.principal import Principal
from app.schemas.identity import CurrentUser
from app.services.organizations import whoami
from rest.docs import problems, scoped


@get(
    "/whoami",
    tags=["identity"],
    summary="The current user",
    description=scoped(None, "The user behind the credential and their organization."),
    responses=problems(),
)
async def get_whoami(principal: NamedDependency[Principal]) -> CurrentUser:
    return await whoami(principal)
