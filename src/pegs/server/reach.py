"""Where ``pegs serve`` can listen and who can open it: a check that the address and port
are usable before anything starts, and the addresses to print at start, each saying who
can open it.

Only the standard library, and no traffic: this computer's addresses come from its host
name and from the routing table (a UDP socket "connected" to a private address learns the
interface it would leave by, without sending anything).
"""

from __future__ import annotations

import contextlib
import errno
import ipaddress
import socket

#: Hosts that mean "every address of this computer" (IPv4, or IPv6 for ``::``).
WILDCARDS: dict[str, int] = {"": socket.AF_INET, "0.0.0.0": socket.AF_INET, "::": socket.AF_INET6}

#: Private addresses a UDP socket is "connected" to (nothing is sent) to learn the address
#: of the interface this computer's traffic leaves by.
PROBES: dict[int, str] = {socket.AF_INET: "10.254.254.254", socket.AF_INET6: "fd00:ffff::1"}

THIS_COMPUTER = "this computer only"
NETWORK = "this computer and others on its network"
INTERNET = "anyone who can reach this computer (check your firewall)"

HOSTS_HINT = ("use 127.0.0.1 (this computer only, the default) or 0.0.0.0 (every network "
              "this computer is on)")


def _sockets_for(host: str, port: int) -> list[tuple[int, tuple[object, ...]]]:
    """(family, address) of each socket the server will listen on, as asyncio binds them."""
    infos = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM,
                               flags=socket.AI_PASSIVE)
    seen: list[tuple[int, tuple[object, ...]]] = []
    for family, _, _, _, address in infos:
        if (family, address) not in seen and family in (socket.AF_INET, socket.AF_INET6):
            seen.append((family, address))
    return seen


def _binds(family: int, address: tuple[object, ...]) -> None:
    """Bind (and close) a listening socket at ``address``; OSError if it cannot."""
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn's server does
        if family == socket.AF_INET6:
            s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        s.bind(address)
        s.listen(1)


def _free_port_near(host: str, port: int) -> int | None:
    """A port above ``port`` that is free on ``host`` (None if none of the next 20 is)."""
    for other in range(port + 1, min(port + 21, 65536)):
        try:
            for family, address in _sockets_for(host, other):
                _binds(family, address)
        except OSError:
            continue
        return other
    return None


def listen_problem(host: str, port: int) -> str | None:
    """Why ``pegs serve --host host --port port`` could not listen, in one line, or None.

    Binds a socket on every address ``host`` names (and closes it at once), so a port
    another program holds, or a host that is not this computer's, is refused before the
    database is opened or anything is printed."""
    try:
        addresses = _sockets_for(host, port)
    except (socket.gaierror, UnicodeError):
        return f"--host {host} is not an address of this computer (no such name); {HOSTS_HINT}"
    for family, address in addresses:
        try:
            _binds(family, address)
        except OSError as e:
            at = address[0]
            if e.errno == errno.EADDRINUSE:
                other = _free_port_near(host, port)
                suggestion = f", e.g. --port {other}" if other else ""
                return (f"port {port} is already taken on {at} (another pegs serve, or "
                        f"another program); choose another with --port{suggestion}")
            if e.errno == errno.EADDRNOTAVAIL:
                return f"--host {host} is not an address of this computer; {HOSTS_HINT}"
            if e.errno == errno.EACCES:
                return (f"not allowed to listen on port {port} (ports below 1024 need "
                        "administrator rights); choose another with --port, e.g. --port 8000")
            return f"cannot listen on {at} port {port}: {e.strerror or e}"
    return None


def _url(address: str, port: int) -> str:
    shown = f"[{address}]" if ":" in address else address
    return f"http://{shown}:{port}/"


def _who(address: str) -> str:
    ip = ipaddress.ip_address(address.split("%")[0])
    if ip.is_loopback:
        return THIS_COMPUTER
    return NETWORK if ip.is_private else INTERNET


def own_addresses(family: int) -> list[str]:
    """This computer's addresses of ``family`` other than loopback and link-local ones:
    those its host name names, and the one its traffic leaves by (learnt without sending
    anything)."""
    found: list[str] = []
    with contextlib.suppress(OSError, UnicodeError):
        for info in socket.getaddrinfo(socket.gethostname(), None, family, socket.SOCK_STREAM):
            found.append(str(info[4][0]))
    with contextlib.suppress(OSError), socket.socket(family, socket.SOCK_DGRAM) as s:
        s.connect((PROBES[family], 9))  # UDP: connect() picks a route, sends nothing
        found.append(str(s.getsockname()[0]))
    out: list[str] = []
    for address in found:
        ip = ipaddress.ip_address(address.split("%")[0])
        if not (ip.is_loopback or ip.is_link_local or ip.is_unspecified) and address not in out:
            out.append(address)
    return out


def reachable(host: str, port: int) -> list[tuple[str, str]]:
    """(URL, who can open it) for each address the server listening on ``host`` answers
    at: for a wildcard host, loopback first and then this computer's other addresses."""
    if host in WILDCARDS:
        family = WILDCARDS[host]
        loopback = "127.0.0.1" if family == socket.AF_INET else "::1"
        return [(_url(a, port), _who(a)) for a in [loopback, *own_addresses(family)]]
    out: list[tuple[str, str]] = []
    for _, address in _sockets_for(host, port):
        entry = (_url(str(address[0]), port), _who(str(address[0])))
        if entry not in out:
            out.append(entry)
    return out


def announcement(host: str, port: int) -> str:
    """What ``pegs serve`` prints at start: every address it can be opened at and who can
    open it, and how to let others in when only this computer can."""
    places = reachable(host, port)
    width = max(len(url) for url, _ in places)
    lines = [f"pegs: serving on port {port} (API docs at /docs); open it at"]
    lines += [f"  {url:<{width}}  {who}" for url, who in places]
    if all(who == THIS_COMPUTER for _, who in places):
        lines.append("  (only this computer can open it; for others on your network too: "
                     "--host 0.0.0.0)")
    return "\n".join(lines)
