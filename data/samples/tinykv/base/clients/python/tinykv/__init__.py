"""Python client for tinykv."""

from .client import Client, ProtocolError

__all__ = ["Client", "ProtocolError"]
