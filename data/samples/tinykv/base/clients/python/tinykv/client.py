"""A blocking client for the tinykv line protocol."""

import socket


class ProtocolError(Exception):
    """The server answered with ERR or with something unexpected."""


class Client:
    """One connection to a tinykv server."""

    def __init__(self, host="127.0.0.1", port=7070, sock=None):
        self._sock = sock or socket.create_connection((host, port))
        self._file = self._sock.makefile("rw", encoding="utf-8", newline="\n")

    def _command(self, *parts):
        self._file.write(" ".join(str(p) for p in parts) + "\n")
        self._file.flush()
        reply = self._file.readline().rstrip("\n")
        if reply.startswith("ERR "):
            raise ProtocolError(reply[4:])
        return reply

    def set(self, key, value):
        """Store value under key."""
        if self._command("SET", key, value) != "OK":
            raise ProtocolError("SET was not acknowledged")

    def get(self, key):
        """Return the value of key, or None."""
        reply = self._command("GET", key)
        if reply == "NIL":
            return None
        return reply[len("VALUE "):]

    def delete(self, key):
        """Delete key; return True when it existed."""
        return self._command("DEL", key) == "1"

    def close(self):
        self._file.close()
        self._sock.close()
