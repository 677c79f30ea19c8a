from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="AuthorizationServerMetadata")


@_attrs_define
class AuthorizationServerMetadata:
    """
    Attributes:
        issuer (str):
        authorization_endpoint (str):
        token_endpoint (str):
        revocation_endpoint (str):
        jwks_uri (str):
        scopes_supported (list[str]):
        response_types_supported (list[str]):
        response_modes_supported (list[str]):
        grant_types_supported (list[str]):
        token_endpoint_auth_methods_supported (list[str]):
        revocation_endpoint_auth_methods_supported (list[str]):
        code_challenge_methods_supported (list[str]):
        service_documentation (str):
    """

    issuer: str
    authorization_endpoint: str
    token_endpoint: str
    revocation_endpoint: str
    jwks_uri: str
    scopes_supported: list[str]
    response_types_supported: list[str]
    response_modes_supported: list[str]
    grant_types_supported: list[str]
    token_endpoint_auth_methods_supported: list[str]
    revocation_endpoint_auth_methods_supported: list[str]
    code_challenge_methods_supported: list[str]
    service_documentation: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        issuer = self.issuer

        authorization_endpoint = self.authorization_endpoint

        token_endpoint = self.token_endpoint

        revocation_endpoint = self.revocation_endpoint

        jwks_uri = self.jwks_uri

        scopes_supported = self.scopes_supported

        response_types_supported = self.response_types_supported

        response_modes_supported = self.response_modes_supported

        grant_types_supported = self.grant_types_supported

        token_endpoint_auth_methods_supported = (
            self.token_endpoint_auth_methods_supported
        )

        revocation_endpoint_auth_methods_supported = (
            self.revocation_endpoint_auth_methods_supported
        )

        code_challenge_methods_supported = self.code_challenge_methods_supported

        service_documentation = self.service_documentation

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "issuer": issuer,
                "authorization_endpoint": authorization_endpoint,
                "token_endpoint": token_endpoint,
                "revocation_endpoint": revocation_endpoint,
                "jwks_uri": jwks_uri,
                "scopes_supported": scopes_supported,
                "response_types_supported": response_types_supported,
                "response_modes_supported": response_modes_supported,
                "grant_types_supported": grant_types_supported,
                "token_endpoint_auth_methods_supported": token_endpoint_auth_methods_supported,
                "revocation_endpoint_auth_methods_supported": revocation_endpoint_auth_methods_supported,
                "code_challenge_methods_supported": code_challenge_methods_supported,
                "service_documentation": service_documentation,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        issuer = d.pop("issuer")

        authorization_endpoint = d.pop("authorization_endpoint")

        token_endpoint = d.pop("token_endpoint")

        revocation_endpoint = d.pop("revocation_endpoint")

        jwks_uri = d.pop("jwks_uri")

        scopes_supported = cast(list[str], d.pop("scopes_supported"))

        response_types_supported = cast(list[str], d.pop("response_types_supported"))

        response_modes_supported = cast(list[str], d.pop("response_modes_supported"))

        grant_types_supported = cast(list[str], d.pop("grant_types_supported"))

        token_endpoint_auth_methods_supported = cast(
            list[str], d.pop("token_endpoint_auth_methods_supported")
        )

        revocation_endpoint_auth_methods_supported = cast(
            list[str], d.pop("revocation_endpoint_auth_methods_supported")
        )

        code_challenge_methods_supported = cast(
            list[str], d.pop("code_challenge_methods_supported")
        )

        service_documentation = d.pop("service_documentation")

        authorization_server_metadata = cls(
            issuer=issuer,
            authorization_endpoint=authorization_endpoint,
            token_endpoint=token_endpoint,
            revocation_endpoint=revocation_endpoint,
            jwks_uri=jwks_uri,
            scopes_supported=scopes_supported,
            response_types_supported=response_types_supported,
            response_modes_supported=response_modes_supported,
            grant_types_supported=grant_types_supported,
            token_endpoint_auth_methods_supported=token_endpoint_auth_methods_supported,
            revocation_endpoint_auth_methods_supported=revocation_endpoint_auth_methods_supported,
            code_challenge_methods_supported=code_challenge_methods_supported,
            service_documentation=service_documentation,
        )

        authorization_server_metadata.additional_properties = d
        return authorization_server_metadata

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
