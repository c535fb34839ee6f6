"""The mock upstream at a fixed address: ``--upstream-listen HOST:PORT`` binds it there and ``--upstream-url``
is the address the SUT is told, for a gateway that is already running and configured with that address.
Every case of the run is served by that one mock, told apart by its routing token."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from harness._errors import FlagError

if TYPE_CHECKING:
    from harness.upstream import MockUpstream

__all__ = ["Address", "check_listen", "check_upstream_url", "listen_upstream"]

LISTEN_FLAG = "--upstream-listen"
URL_FLAG = "--upstream-url"


def check_listen(flag: str, value: object) -> str | None:
    """``HOST:PORT`` (an IPv6 host in brackets, ``0.0.0.0`` for a container to reach it), as given;
    a bad one is a FlagError naming ``flag``."""
    if value is None:
        return None
    text = str(value)
    host, colon, port = text.rpartition(":")
    if not colon or not host or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise FlagError(
            f"{flag} {text!r}: expected HOST:PORT with a port 0-65535, e.g. 127.0.0.1:18080 "
            "(0.0.0.0:18080 for a container to reach it)"
        )
    return text


def check_upstream_url(flag: str, value: object) -> str | None:
    """An ``http://`` or ``https://`` URL, without a trailing slash."""
    if value is None:
        return None
    text = str(value)
    if not text.startswith(("http://", "https://")) or len(text.split("://", 1)[1].strip("/")) == 0:
        raise FlagError(
            f"{flag} {text!r}: expected the http:// URL the SUT reaches the mock upstream at, "
            "e.g. http://host.docker.internal:18080"
        )
    return text.rstrip("/")


@dataclass(frozen=True, slots=True)
class Address:
    """Where the mock listens (``host``, ``port``) and the URL the SUT is told (``url``)."""

    host: str
    port: int
    url: str

    @classmethod
    def of(cls, listen: str, url: str | None) -> Address:
        host, _, port = listen.rpartition(":")
        return cls(host.strip("[]"), int(port), url or f"http://{host}:{port}")

    @property
    def listen(self) -> str:
        return f"[{self.host}]:{self.port}" if ":" in self.host else f"{self.host}:{self.port}"

    def info(self) -> dict[str, str]:
        """What results.json's ``run_info`` says of it."""
        return {"listen": self.listen, "url": self.url}


def listen_upstream(address: Address) -> tuple[MockUpstream, Address]:
    """The started mock upstream at ``address`` (port 0: a free one, then in the returned address and
    its default URL); a port that cannot be bound is one FlagError line."""
    from harness.net import listen_error
    from harness.upstream import MockUpstream

    up = MockUpstream(address.host, address.port)
    try:
        up.start()
    except RuntimeError as exc:
        raise FlagError(
            f"{LISTEN_FLAG} {address.listen}: cannot listen there ({listen_error(exc)}); choose a free "
            "port, or stop what holds it"
        ) from None
    if address.port == 0:
        told = address.url if not address.url.endswith(":0") else address.url[:-1] + str(up.port)
        address = Address(address.host, up.port, told)
    up.told = address.url
    return up, address
