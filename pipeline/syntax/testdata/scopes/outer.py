import os

@decorator
@other(arg=1)
async def fetch(url):
    def parse(body):
        return body
    cb = lambda x: x + 1
    return parse(cb(url))

class Outer:
    field = 1
    class Inner:
        @property
        def value(self):
            return 1
    def method(self):
        class Local:
            def run(self):
                pass
        return Local
