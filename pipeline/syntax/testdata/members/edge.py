"""Python member edge cases."""
import typing

__all__ = ["Cache"]
A, (B, C) = 1, (2, 3)
first = second = 0
first += 1
typing.extra = 2

if typing.TYPE_CHECKING:
    CHECKED: int = 0
try:
    import json
    HAS_JSON = True
except ImportError:
    HAS_JSON = False


def lookup(key):
    found = key

    class Local:
        hidden = 1

    return found


@dataclass(frozen=True)
class Cache:
    __slots__ = ("entries",)
    size = limit = 10

    def __init__(self):
        self.entries = {}

    class Entry:
        key: str
        _value: object
