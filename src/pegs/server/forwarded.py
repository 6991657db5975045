"""Client addresses.  uvicorn takes the client's address from ``X-Forwarded-For`` only
when the connection comes from a proxy the operator named (``pegs serve
--forwarded-allow-ips``); whatever it took must look like an address, else the request is
refused here, before anything stores or counts it."""

from __future__ import annotations

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

#: The longest text of an IP address (IPv6 with an embedded IPv4 address).
MAX_ADDRESS = 45


def usable(host: str) -> bool:
    """Whether a client address is short and printable (it keys the per-address limits and
    is stored with the tables a client creates)."""
    return 0 < len(host) <= MAX_ADDRESS and host.isprintable()


class AddressCheck:
    """Refuses a request (400 ``bad_address``) or a WebSocket (closed before it opens)
    whose client address is no address."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        client = scope.get("client")
        if scope["type"] in ("http", "websocket") and client and not usable(str(client[0])):
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1008})
                return
            response = JSONResponse({"error": {
                "code": "bad_address",
                "message": "the forwarded client address is not an IP address"}},
                status_code=400)
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)
