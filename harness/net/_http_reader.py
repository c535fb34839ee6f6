"""One HTTP/1.1 response read off the wire, sans-IO: bytes in; status, headers, body pieces and the end out.
Both of thinkwire's clients read through it, the front door's on sockets and the reference gateway's
upstream client on asyncio, so a response is framed one way."""

from __future__ import annotations

import httptools

__all__ = ["FramingError", "ResponseReader"]


class FramingError(Exception):
    """The bytes broke HTTP/1.1 framing (llhttp's message), or switched protocols (``upgrade``)."""

    def __init__(self, message: str, *, upgrade: bool = False) -> None:
        super().__init__(message)
        self.upgrade = upgrade


class ResponseReader:
    """``feed`` each read, ``eof`` when the peer closed; read ``head``, ``status``, ``headers`` (the
    final head's, 1xx heads skipped: raw names and values in order), take the body from ``pieces``
    (the caller empties it), and ``done``. ``bare_lf``: a line may end in a bare LF, as h11 reads.

    llhttp, from httptools in C, parses; a body piece is what llhttp hands over, one per HTTP chunk or part
    of one, of each read. Bytes after the response's end are no response, only a connection not to use
    again.
    """

    __slots__ = ("_parser", "done", "extra", "head", "headers", "keep", "pieces", "status")

    def __init__(self, *, bare_lf: bool = False) -> None:
        self._parser = httptools.HttpResponseParser(self)
        if bare_lf:
            self._parser.set_dangerous_leniencies(lenient_optional_cr_before_lf=True)
        self.status = 0
        self.headers: list[tuple[bytes, bytes]] = []
        self.head = False  # the final (not 1xx) response head arrived
        self.pieces: list[bytes] = []
        self.done = False  # the whole response arrived
        self.extra = False  # bytes came after it: the connection is not used again
        self.keep = False  # the response let the connection be used again (llhttp forgets at its end)

    def feed(self, data: bytes) -> None:
        """One read's bytes (not empty). A framing error raises :class:`FramingError`; one after the
        response's end (``done`` already true) only spoils the connection, the caller decides."""
        try:
            self._parser.feed_data(data)
        except httptools.HttpParserUpgrade as exc:
            self.extra = self.extra or self.done
            raise FramingError(str(exc), upgrade=True) from None
        except httptools.HttpParserError as exc:
            self.extra = self.extra or self.done
            raise FramingError(str(exc)) from None

    def eof(self) -> bool:
        """The peer closed the connection: whether the response is whole (a body that runs until the
        connection closes ends here); False if it was cut short, or never came."""
        if not self.done and self.head and self._until_close():
            self.done = True
        return self.done

    def keep_alive(self) -> bool:
        """The connection may serve the next request: the response ended as framed, nothing followed
        it, and neither side said ``Connection: close``."""
        return self.done and self.keep and not self.extra

    def _until_close(self) -> bool:
        """The body runs until the connection closes: neither a length nor chunked as the last coding."""
        coding = b""
        for name, value in self.headers:
            key = name.lower()
            if key == b"content-length":
                return False
            if key == b"transfer-encoding":
                coding = value
        return not coding.lower().rstrip().endswith(b"chunked")

    # -- llhttp's callbacks ----------------------------------------------------------------------------
    def on_message_begin(self) -> None:
        if self.done:
            self.extra = True
        else:
            self.headers = []  # after a 1xx head: the final head's own

    def on_header(self, name: bytes, value: bytes) -> None:
        if not self.done:
            self.headers.append((name, value))

    def on_headers_complete(self) -> None:
        if self.done:
            return
        status = self._parser.get_status_code()
        if status >= 200:
            self.status, self.head = status, True

    def on_body(self, body: bytes) -> None:
        if not self.done:
            self.pieces.append(body)

    def on_message_complete(self) -> None:
        if self.head and not self.done:
            self.done, self.keep = True, self._parser.should_keep_alive()
