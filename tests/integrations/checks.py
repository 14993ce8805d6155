"""The integration tests' failure list: a check records what failed and the run goes on, so one
run reports every broken part of a config, not only the first."""

import contextlib

FAILURES = []


def check(condition, message):
    if not condition:
        FAILURES.append(message)
        print("FAIL:", message)
    return condition


def exit_code():
    """0 when every check held, else 1, after saying how many failed."""
    if FAILURES:
        print(f"{len(FAILURES)} failure(s)")
        return 1
    print("ok")
    return 0


@contextlib.contextmanager
def server_session(client):
    """A conversation with `client`'s server: one that raises counts as a failure; the server is
    killed at the end whatever happened, and its log is shown when anything failed."""
    try:
        yield client
    except Exception:
        FAILURES.append("the session broke off")
        raise
    finally:
        client.kill()
        if FAILURES:
            print(client.stderr_text()[-4000:])
