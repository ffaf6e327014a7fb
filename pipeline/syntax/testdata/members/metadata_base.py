"""Core metadata (a cut of pypa/packaging's metadata.py before PEP 639)."""
from __future__ import annotations

from typing import Generic, TypedDict, TypeVar

T = TypeVar("T")
__all__ = ["Metadata", "RawMetadata"]


class RawMetadata(TypedDict, total=False):
    """A dictionary of raw core metadata."""

    # Metadata 1.0 - PEP 241
    metadata_version: str
    name: str
    version: str
    # Metadata 2.2 - PEP 643
    dynamic: list[str]


_STRING_FIELDS = {"metadata_version", "name", "version"}


class _Validator(Generic[T]):
    name: str
    added: str

    def __init__(self, *, added: str = "1.0") -> None:
        self.added = added
        local = 1


class Metadata:
    _raw: RawMetadata

    @classmethod
    def from_raw(cls, data: RawMetadata) -> Metadata:
        ins = cls()
        ins._raw = data.copy()
        return ins

    metadata_version: _Validator[str] = _Validator()
    """:external:ref:`core-metadata-metadata-version`"""
    name: _Validator[str] = _Validator()
    version: _Validator[str] = _Validator()
    license: _Validator[str | None] = _Validator()
