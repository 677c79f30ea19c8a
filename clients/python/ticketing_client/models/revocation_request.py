from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.revocation_request_token_type_hint import RevocationRequestTokenTypeHint
from ..types import UNSET, Unset

T = TypeVar("T", bound="RevocationRequest")


@_attrs_define
class RevocationRequest:
    """
    Attributes:
        token (str): An access or refresh token
        token_type_hint (RevocationRequestTokenTypeHint | Unset): A hint
        client_id (str | Unset): With `client_secret` in the form, or for a public client alone
        client_secret (str | Unset): Or HTTP Basic authentication
    """

    token: str
    token_type_hint: RevocationRequestTokenTypeHint | Unset = UNSET
    client_id: str | Unset = UNSET
    client_secret: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        token = self.token

        token_type_hint: str | Unset = UNSET
        if not isinstance(self.token_type_hint, Unset):
            token_type_hint = self.token_type_hint.value

        client_id = self.client_id

        client_secret = self.client_secret

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "token": token,
            }
        )
        if token_type_hint is not UNSET:
            field_dict["token_type_hint"] = token_type_hint
        if client_id is not UNSET:
            field_dict["client_id"] = client_id
        if client_secret is not UNSET:
            field_dict["client_secret"] = client_secret

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        token = d.pop("token")

        _token_type_hint = d.pop("token_type_hint", UNSET)
        token_type_hint: RevocationRequestTokenTypeHint | Unset
        if isinstance(_token_type_hint, Unset):
            token_type_hint = UNSET
        else:
            token_type_hint = RevocationRequestTokenTypeHint(_token_type_hint)

        client_id = d.pop("client_id", UNSET)

        client_secret = d.pop("client_secret", UNSET)

        revocation_request = cls(
            token=token,
            token_type_hint=token_type_hint,
            client_id=client_id,
            client_secret=client_secret,
        )

        revocation_request.additional_properties = d
        return revocation_request

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
