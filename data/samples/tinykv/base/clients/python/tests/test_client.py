import io
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from tinykv import Client, ProtocolError  # noqa: E402


class FakeSocket:
    """Answers each request line with the next scripted reply."""

    def __init__(self, replies):
        self.sent = []
        self._replies = list(replies)

    def makefile(self, mode, encoding=None, newline=None):
        sock = self

        class File(io.StringIO):
            def write(self, s):
                sock.sent.append(s)
                return len(s)

            def readline(self):
                return sock._replies.pop(0) + "\n"

        return File()

    def close(self):
        pass


class ClientTest(unittest.TestCase):
    def test_set_get(self):
        sock = FakeSocket(["OK", "VALUE 1"])
        c = Client(sock=sock)
        c.set("a", 1)
        self.assertEqual(c.get("a"), "1")
        self.assertEqual(sock.sent, ["SET a 1\n", "GET a\n"])

    def test_error(self):
        c = Client(sock=FakeSocket(["ERR usage"]))
        with self.assertRaises(ProtocolError):
            c.get("a")


if __name__ == "__main__":
    unittest.main()
