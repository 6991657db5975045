"""Bounds below the application, on each TCP connection: a request (its head and body)
must arrive within a deadline, and one address holds at most so many connections to this
process.  uvicorn has neither (its keep-alive timeout only runs between requests), so
``pegs serve`` runs uvicorn with :func:`guarded_http`, its httptools protocol with both."""

from __future__ import annotations

import asyncio
import ipaddress
from collections.abc import Iterable
from typing import Any, ClassVar

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
#: Every so many connections, addresses whose connections all closed are forgotten.
SWEEP_EVERY = 1024


def networks(text: str) -> list[Network]:
    """The addresses and networks of a comma-separated list ("10.0.0.1, 192.168.0.0/16");
    ValueError names a bad one."""
    out = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        try:
            out.append(ipaddress.ip_network(part, strict=False))
        except ValueError:
            raise ValueError(f"{part!r} is not an IP address or network") from None
    return out


def within(host: str, trusted: Iterable[Network]) -> bool:
    """Whether ``host`` is one of the ``trusted`` addresses."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return any(address in net for net in trusted)


class GuardedHttp(HttpToolsProtocol):
    """uvicorn's HTTP protocol with a request deadline and a per-address cap (the class
    attributes are set by :func:`guarded_http`)."""

    request_seconds = 30.0
    max_per_address = 0
    exempt: tuple[Network, ...] = ()
    #: this process's open connections by client address (upgraded WebSockets leave
    #: without telling: closed ones are swept out now and then)
    held: ClassVar[dict[str, list[asyncio.Transport]]] = {}
    made: ClassVar[int] = 0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        cls = type(self)
        cls.made += 1
        if cls.made % SWEEP_EVERY == 0:
            for host, held in list(self.held.items()):
                if all(t.is_closing() for t in held):
                    del self.held[host]
        host = self.client[0] if self.client else ""
        if self.max_per_address and not within(host, self.exempt):
            open_now = [t for t in self.held.get(host, ()) if not t.is_closing()]
            if len(open_now) >= self.max_per_address:
                transport.abort()
                return
            open_now.append(transport)
            self.held[host] = open_now
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        host = self.client[0] if self.client else ""
        open_now = [t for t in self.held.get(host, ()) if not t.is_closing()]
        if open_now:
            self.held[host] = open_now
        else:
            self.held.pop(host, None)
        super().connection_lost(exc)

    def on_message_begin(self) -> None:
        self._arm()  # a later request on a kept-alive connection
        super().on_message_begin()

    def on_message_complete(self) -> None:
        self._disarm()
        super().on_message_complete()

    def handle_websocket_upgrade(self) -> None:
        self._disarm()
        super().handle_websocket_upgrade()

    def _arm(self) -> None:
        if self._deadline is None:
            self._deadline = self.loop.call_later(self.request_seconds, self._late)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _late(self) -> None:
        self._deadline = None
        self.transport.abort()


def guarded_http(request_seconds: float, max_per_address: int,
                 exempt: Iterable[Network]) -> type[GuardedHttp]:
    """The protocol class for ``uvicorn.run(http=...)``: requests that do not arrive within
    ``request_seconds`` are dropped, and an address not ``exempt`` (the proxies) may hold
    ``max_per_address`` connections (0: no cap)."""
    return type("PegsHttp", (GuardedHttp,), {
        "request_seconds": request_seconds, "max_per_address": max_per_address,
        "exempt": tuple(exempt), "held": {}, "made": 0})
