"""Ports on 127.0.0.1 that the runner's servers listen on: a free one, and whether one is taken.
Below everything that starts a server (PostgreSQL, the stacks, the stock upstream), so that each
may ask without depending on another."""

from __future__ import annotations

import socket


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def port_in_use(port_number: int) -> bool:
    """Whether a server could not listen on 127.0.0.1:`port_number`: something listens there, or
    a connection has it as its own local port (which a connect test would not see)."""
    with socket.socket() as sock:
        # As PostgreSQL and the stacks' servers bind: a port in TIME_WAIT alone is free.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(("127.0.0.1", port_number))
        except OSError:
            return True
        return False
