import typing

LICENSES = {
    "mit": "MIT",
    "apache-2.0": "Apache-2.0",
}
LICENSES["0bsd"] = "0BSD"


class RawMetadata(typing.TypedDict, total=False):
    name: str
    version: str
    # Metadata 2.4
    license_expression: str
    license_files: str


def canonicalize(expr):
    key = expr.strip().lower()
    if key not in LICENSES:
        raise ValueError(expr)
    return LICENSES[key]


def parse(text):
    fields = {}
    for line in text.splitlines():
        key, _, value = line.partition(": ")
        fields[key.lower().replace("-", "_")] = value
    if "license_expression" in fields:
        fields["license_expression"] = canonicalize(fields["license_expression"])
    return {k: v for k, v in fields.items() if k in RawMetadata.__annotations__}


def license_files(fields):
    files = fields.get("license_files", "")
    return [f for f in files.split(",") if f]


def dump(fields):
    return "\n".join(f"{k}: {v}" for k, v in sorted(fields.items()))
