# A fixture for juju's LSP tests: identifiers after emoji on the same line.


class Server:
    """😀 A server."""

    def run(self) -> int:  # 😀
        return 1


def helper(x: int) -> str:
    return str(x)
