"""What the check scripts share (imported from scripts/, beside them): a check that prints
ok or FAIL and remembers failures, a free port of loopback, and the exit that reports them."""
import socket
import sys

failures = []


def check(condition, message):
    """Prints `ok` or `FAIL` and the message; a failure is remembered for `finish`."""
    print(("ok   " if condition else "FAIL ") + message)
    if not condition:
        failures.append(message)


def free_port():
    """A TCP port of 127.0.0.1 that nothing listens on."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def finish(summary):
    """Exits 1 when a check failed, else prints the summary."""
    if failures:
        print(f"{len(failures)} failed", file=sys.stderr)
        sys.exit(1)
    print(summary)
