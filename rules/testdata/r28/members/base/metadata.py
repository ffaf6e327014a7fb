"""Core metadata."""

from typing import TypedDict


class RawMetadata(TypedDict, total=False):
    """Raw core metadata."""

    name: str
    version: str

    # Metadata 2.2
    dynamic: list[str]


def parse(data):
    raw = RawMetadata()
    for key in ("name", "version", "dynamic"):
        if key in data:
            raw[key] = data[key]
    return raw
