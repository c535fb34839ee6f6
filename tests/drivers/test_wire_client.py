"""The front door's HTTP/1.1 client (``harness.net._http_client``): bodies framed by length, by
chunks or by the server closing, under any split of the bytes into socket reads; one piece per HTTP
chunk (or part of one), as httpx handed them over; kept connections reused, never after an early leave,
an error or ``Connection: close``; one the server closed while idle replaced before anything is
written; a trickling server ended by the deadline's shutdown; https against a self-signed server."""

from __future__ import annotations

import select
import shutil
import socket
import ssl
import subprocess
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from _raw_server import RawServer, read_request
from hypothesis import given, settings
from hypothesis import strategies as st

from harness.drivers._http import _Watchdog
from harness.net._http_client import Exchange, WireClient, WireError, _where
from tests.net._http_frames import framed, split

# --- the bytes of an answer, split into socket reads (no socket: a scripted recv) --------------------


class ScriptedSocket:
    """Stands in for a socket: ``recv`` hands over the scripted reads in turn, then the end of stream."""

    def __init__(self, reads: list[bytes]) -> None:
        self.reads = list(reads)
        self.sent = b""
        self.closed = False

    def sendall(self, data: bytes) -> None:
        self.sent += data

    def recv(self, size: int) -> bytes:
        return self.reads.pop(0)[:size] if self.reads else b""

    def close(self) -> None:
        self.closed = True


def _exchange(reads: list[bytes]) -> tuple[WireClient, Exchange, ScriptedSocket]:
    client = WireClient()
    sock = ScriptedSocket(reads)
    ex = Exchange(client, ("http", "sut", 80), sock, "/v1/x", "sut")  # type: ignore[arg-type]
    return client, ex, sock




@settings(max_examples=300, deadline=None)
@given(
    body=st.lists(st.binary(min_size=1, max_size=40), max_size=8),
    framing=st.sampled_from(["length", "chunked", "close"]),
    cuts=st.lists(st.integers(min_value=0, max_value=10_000), max_size=12),
)
def test_any_split_gives_the_body_and_keeps_the_connection_only_when_it_may(
    body: list[bytes], framing: str, cuts: list[int]
) -> None:
    client, ex, sock = _exchange(split(framed(body, framing), cuts))
    ex.send("POST", b"{}", {})
    assert ex.status == 200
    pieces = list(ex.body())
    assert b"".join(pieces) == b"".join(body)
    if framing == "chunked":  # a piece never spans two chunks (a cancel gate stops where httpx did)
        starts = {sum(len(p) for p in body[:i]) for i in range(len(body) + 1)}
        at = 0
        for piece in pieces:
            inside = [s for s in starts if at < s < at + len(piece)]
            assert not inside, (pieces, body)
            at += len(piece)
    ex.release()
    kept = framing != "close"
    assert sock.closed is not kept
    assert (sock in client._idle[("http", "sut", 80)]) is kept


def test_the_request_is_one_write_with_the_profile_headers_winning() -> None:
    _, ex, sock = _exchange([b"HTTP/1.1 204 No Content\r\n\r\n"])
    ex.send("POST", b'{"a":1}', {"Accept": "text/event-stream", "x-api-key": "k", "Content-Length": "99"})
    head, body = sock.sent.split(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    assert lines[0] == b"POST /v1/x HTTP/1.1"
    for line in (b"Host: sut", b"Accept: text/event-stream", b"x-api-key: k", b"Content-Length: 7"):
        assert line in lines
    assert b"Content-Length: 99" not in lines
    assert b"Accept-Encoding: identity" in lines  # the stream as the SUT wrote it, never compressed
    assert body == b'{"a":1}'


@pytest.mark.parametrize(
    ("url", "where"),
    [
        ("http://127.0.0.1:8080/v1/c?x=1", (("http", "127.0.0.1", 8080), "/v1/c?x=1", "127.0.0.1:8080")),
        ("HTTPS://gw.example", (("https", "gw.example", 443), "/", "gw.example")),
        ("http://[::1]:9/p", (("http", "::1", 9), "/p", "[::1]:9")),
    ],
)
def test_a_url_gives_its_origin_request_target_and_host(url: str, where: tuple[object, ...]) -> None:
    assert _where(url) == where


def test_a_url_that_is_not_http_is_refused() -> None:
    with pytest.raises(WireError, match="not an http"):
        WireClient().exchange("ftp://host/x", connect_timeout=1.0)


def test_a_header_with_a_line_break_is_refused_before_anything_is_written() -> None:
    _, ex, sock = _exchange([])
    with pytest.raises(WireError, match="line break"):
        ex.send("POST", b"{}", {"x-evil": "a\r\nHost: other"})
    assert sock.sent == b""


@pytest.mark.parametrize(
    ("reads", "why"),
    [
        ([], "without answering"),
        ([b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc"], "inside the answer's body"),
        ([b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n"], "inside the answer's body"),
        ([b"HTTZ/1.1 200 OK\r\n\r\n"], "unreadable HTTP answer"),
    ],
    ids=["no-answer", "short-length", "no-last-chunk", "not-http"],
)
def test_a_cut_or_broken_answer_is_an_error_and_the_connection_goes(reads: list[bytes], why: str) -> None:
    _, ex, sock = _exchange(reads)
    with pytest.raises(WireError, match=why):  # noqa: PT012  # the head, or the body
        ex.send("POST", b"{}", {})
        list(ex.body())
    ex.release()
    assert sock.closed


def test_bytes_after_the_answer_spoil_the_connection_not_the_answer() -> None:
    _, ex, sock = _exchange([b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhiHTTZ junk"])
    ex.send("POST", b"{}", {})
    assert b"".join(ex.body()) == b"hi"
    ex.release()
    assert sock.closed


def test_an_informational_answer_is_skipped_and_bare_lf_lines_read_as_h11_reads_them() -> None:
    early = b"HTTP/1.1 103 Early Hints\r\nLink: x\r\n\r\n"
    _, ex, _ = _exchange([early + b"HTTP/1.1 200 OK\nX-A: 1\nx-a: 2\n", b"\nhi"])
    ex.send("POST", b"{}", {})
    assert (ex.status, ex.headers) == (200, {"x-a": "1, 2"})
    assert b"".join(ex.body()) == b"hi"


def test_connection_close_and_an_early_leave_never_keep_the_connection() -> None:
    _, ex, sock = _exchange([b"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nhi"])
    ex.send("POST", b"{}", {})
    assert b"".join(ex.body()) == b"hi"
    ex.release()
    assert sock.closed
    _, ex, sock = _exchange([b"HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nhi", b"ho"])
    ex.send("POST", b"{}", {})
    assert next(ex.body()) == b"hi"
    ex.release()  # left after the first piece: the rest is unread
    assert sock.closed


# --- over real sockets ---------------------------------------------------------------------------


OK = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"


def _post(client: WireClient, url: str) -> bytes:
    ex = client.exchange(url, connect_timeout=5.0)
    try:
        ex.send("POST", b"{}", {})
        return b"".join(ex.body())
    finally:
        ex.release()


def test_a_kept_connection_carries_the_next_requests(serve: Callable[..., RawServer]) -> None:
    def keep(conn: socket.socket, _: int) -> None:
        while read_request(conn) is not None:
            conn.sendall(OK)

    server = serve(keep)
    client = WireClient()
    try:
        assert [_post(client, f"http://127.0.0.1:{server.port}/x") for _ in range(3)] == [b"ok"] * 3
    finally:
        client.close()
    assert server.accepted == 1


def test_a_connection_the_server_closed_while_idle_is_replaced_before_writing(
    serve: Callable[..., RawServer],
) -> None:
    requests: list[tuple[int, bytes]] = []

    def once(conn: socket.socket, index: int) -> None:  # answers one request, then hangs up
        head = read_request(conn)
        assert head is not None
        requests.append((index, head))
        conn.sendall(OK)  # no Connection: close: the client keeps the connection

    server = serve(once)
    client = WireClient()
    url = f"http://127.0.0.1:{server.port}/x"
    try:
        assert _post(client, url) == b"ok"
        (kept,) = client._idle[("http", "127.0.0.1", server.port)]
        assert select.select([kept], [], [], 10)[0]  # the server's FIN has arrived: gate on it
        assert _post(client, url) == b"ok"
    finally:
        client.close()
    assert [i for i, _ in requests] == [0, 1]  # each request written once, the second on a new connection


def test_a_dead_url_is_an_os_error_and_nothing_is_kept() -> None:
    with socket.create_server(("127.0.0.1", 0)) as s:
        port = s.getsockname()[1]  # closed at once: nobody listens there
    client = WireClient()
    with pytest.raises(ConnectionRefusedError):
        client.exchange(f"http://127.0.0.1:{port}/", connect_timeout=5.0)
    assert not client._busy


def test_the_deadline_ends_a_server_that_trickles(serve: Callable[..., RawServer]) -> None:
    stop = threading.Event()

    def trickle(conn: socket.socket, _: int) -> None:
        read_request(conn)
        conn.sendall(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
        while not stop.wait(0.02):  # paces the fake SUT: a byte in its own chunk every 20 ms
            conn.sendall(b"1\r\n.\r\n")

    server = serve(trickle)
    client = WireClient()
    watchdog = _Watchdog(0.3)
    ex = client.exchange(f"http://127.0.0.1:{server.port}/", connect_timeout=5.0)
    try:
        watchdog.attach(ex.sock)
        ex.send("POST", b"{}", {})
        with pytest.raises((WireError, OSError)):
            for _ in ex.body():
                pass
        assert watchdog.fired
    finally:
        stop.set()
        watchdog.cancel()
        ex.release(reuse=not watchdog.fired)
        client.close()
    assert not client._idle.get(("http", "127.0.0.1", server.port))


def test_close_wakes_an_exchange_blocked_on_a_read(serve: Callable[..., RawServer]) -> None:
    asked, stop = threading.Event(), threading.Event()

    def silent(conn: socket.socket, _: int) -> None:
        read_request(conn)
        asked.set()
        stop.wait(10)

    server = serve(silent)
    client = WireClient()
    ex = client.exchange(f"http://127.0.0.1:{server.port}/", connect_timeout=5.0)
    ended: list[Exception] = []

    def send() -> None:
        try:
            ex.send("POST", b"{}", {})
        except (WireError, OSError) as exc:
            ended.append(exc)

    reading = threading.Thread(target=send, daemon=True)
    try:
        reading.start()
        assert asked.wait(10)
        client.close()
        reading.join(timeout=10)
        assert not reading.is_alive()
        assert ended
    finally:
        stop.set()
        ex.release()


# --- https ----------------------------------------------------------------------------------------


@pytest.fixture
def self_signed(tmp_path: Path) -> tuple[ssl.SSLContext, ssl.SSLContext]:
    """A server context with a fresh self-signed certificate for 127.0.0.1, and a client one trusting it."""
    if shutil.which("openssl") is None:
        pytest.skip("the openssl command is not installed")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
         "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
         "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True, timeout=30,
    )  # fmt: skip
    server = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server.load_cert_chain(cert, key)
    client = ssl.create_default_context(cafile=str(cert))
    return server, client


def test_https_against_a_self_signed_server(
    serve: Callable[..., RawServer], self_signed: tuple[ssl.SSLContext, ssl.SSLContext]
) -> None:
    server_tls, client_tls = self_signed

    def keep(conn: socket.socket, _: int) -> None:
        while read_request(conn) is not None:
            conn.sendall(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n")

    server = serve(keep, server_tls)
    url = f"https://127.0.0.1:{server.port}/v1"
    client = WireClient(tls=client_tls)
    try:
        assert [_post(client, url), _post(client, url)] == [b"ok", b"ok"]
    finally:
        client.close()
    assert server.accepted == 1
    untrusting = WireClient()  # the system's CAs: the self-signed certificate is refused
    with pytest.raises(ssl.SSLCertVerificationError):
        untrusting.exchange(url, connect_timeout=5.0)
