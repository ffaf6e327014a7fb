"""SPDX license and exception lists (generated; a cut of packaging's licenses/_spdx.py)."""
from __future__ import annotations

VERSION = "3.25.0"

LICENSES: dict[str, dict[str, str | bool]] = {
    "0bsd": {"id": "0BSD", "deprecated": False},
    "aal": {"id": "AAL", "deprecated": False},
    "apache-2.0": {"id": "Apache-2.0", "deprecated": False},
    "mit": {"id": "MIT", "deprecated": False},
}

EXCEPTIONS = {
    "389-exception": {"id": "389-exception", "deprecated": False},
    "classpath-exception-2.0": {"id": "Classpath-exception-2.0", "deprecated": False},
}

_x = 1
