"""Bounds below the application, on each TCP connection: a request (its head and body)
must arrive within a deadline, its head is at most so many bytes, and one address holds at
most so many connections to this process.  uvicorn has none of these (its keep-alive
timeout only runs between requests, and its httptools parser takes heads of any size), so
``pegs serve`` runs uvicorn with :func:`guarded_http`, its httptools protocol with all
three."""

from __future__ import annotations

import asyncio
import ipaddress
from collections.abc import Iterable
from typing import Any, ClassVar

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
#: Every so many connections, addresses whose connections all closed are forgotten.
SWEEP_EVERY = 1024
#: The answer to a request head over the cap (the connection is closed after it).
_HEAD_TOO_LARGE = (b'{"error":{"code":"too_large","message":"a request head (its line and '
                   b'headers) is at most %d bytes"}}')


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
    max_head_bytes = 16384
    max_per_address = 0
    exempt: tuple[Network, ...] = ()
    #: this process's open connections by client address (upgraded WebSockets leave
    #: without telling: closed ones are swept out now and then)
    held: ClassVar[dict[str, list[asyncio.Transport]]] = {}
    made: ClassVar[int] = 0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None
        self._in_head = True  # a request's head is arriving
        self._head_bytes = 0

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

    def data_received(self, data: bytes) -> None:
        if self._in_head:  # counted up to the blank line that ends the head
            end = data.find(b"\r\n\r\n")
            self._head_bytes += len(data) if end < 0 else end + 4
            if self._head_bytes > self.max_head_bytes:
                self._head_too_large()
                return
        super().data_received(data)

    def on_message_begin(self) -> None:
        self._arm()  # a later request on a kept-alive connection
        super().on_message_begin()

    def on_headers_complete(self) -> None:
        self._in_head = False
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        self._disarm()
        self._in_head, self._head_bytes = True, 0  # the next request's head, if any
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

    def _head_too_large(self) -> None:
        """Answer 431 and close: the head is not read further, nor kept."""
        self._disarm()
        body = _HEAD_TOO_LARGE % self.max_head_bytes
        self.transport.write(b"HTTP/1.1 431 Request Header Fields Too Large\r\n"
                             b"content-type: application/json\r\nconnection: close\r\n"
                             b"content-length: %d\r\n\r\n%s" % (len(body), body))
        self.transport.close()

    def _late(self) -> None:
        self._deadline = None
        self.transport.abort()


def guarded_http(request_seconds: float, max_per_address: int,
                 exempt: Iterable[Network], max_head_bytes: int = 16384) -> type[GuardedHttp]:
    """The protocol class for ``uvicorn.run(http=...)``: requests that do not arrive within
    ``request_seconds`` are dropped, a head over ``max_head_bytes`` is answered 431 and
    its connection closed, and an address not ``exempt`` (the proxies) may hold
    ``max_per_address`` connections (0: no cap)."""
    return type("PegsHttp", (GuardedHttp,), {
        "request_seconds": request_seconds, "max_head_bytes": max_head_bytes,
        "max_per_address": max_per_address,
        "exempt": tuple(exempt), "held": {}, "made": 0})
