import typing

LICENSES = {}


class RawMetadata(typing.TypedDict, total=False):
    name: str
    version: str


def parse(text):
    fields = {}
    for line in text.splitlines():
        key, _, value = line.partition(": ")
        fields[key.lower().replace("-", "_")] = value
    return {k: v for k, v in fields.items() if k in RawMetadata.__annotations__}
