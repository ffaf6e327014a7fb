"""Core metadata."""

from typing import TypedDict


class RawMetadata(TypedDict, total=False):
    """Raw core metadata."""

    name: str
    version: str

    # Metadata 2.2
    dynamic: list[str]

    # Metadata 2.4
    license_expression: str
    license_files: list[str]


def parse(data):
    raw = RawMetadata()
    for key in ("name", "version", "dynamic"):
        if key in data:
            raw[key] = data[key]
    if "license_expression" in data:
        raw["license_expression"] = check_expression(data["license_expression"])
    if "license_files" in data:
        raw["license_files"] = check_files(data["license_files"])
    return raw


def check_expression(value):
    if not value.strip():
        raise ValueError("empty license expression")
    return value.strip()


def check_files(paths):
    for p in paths:
        if p.startswith("/") or ".." in p.split("/"):
            raise ValueError("license file outside the project: " + p)
    return list(paths)
