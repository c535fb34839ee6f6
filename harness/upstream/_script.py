"""What the mock upstream does for one request, a :class:`Script`, and for a conversation. Scripts are plain
frozen data, built by tests, by the scenario loader or from a cassette; only the server and the respx
transport execute them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal, TypeAlias

from harness._gate import Gate
from harness.codec import Frame
from harness.dialects import LENIENT
from harness.events import Event, StreamError

__all__ = [
    "Conversation",
    "Disconnect",
    "Emit",
    "EmitFrames",
    "Gate",
    "HttpError",
    "MalformedFrame",
    "MidStreamError",
    "Pause",
    "Raw",
    "Script",
    "Stall",
    "Step",
    "UnknownEvent",
]


@dataclass(frozen=True, slots=True)
class Emit:
    """Canonical events, through the script's dialect emitter/variant, perturbation and chunking."""

    events: tuple[Event, ...]


@dataclass(frozen=True, slots=True)
class EmitFrames:
    """Pre-built frames, encoded with the script's transport and perturbation."""

    frames: tuple[Frame, ...]


@dataclass(frozen=True, slots=True)
class Raw:
    """Exact bytes, written as given (one write per element): cassettes and framing probes."""

    chunks: tuple[bytes, ...]


@dataclass(frozen=True, slots=True)
class Pause:
    """Deadline-scheduled pause (pacing only; never used to prove anything)."""

    seconds: float


@dataclass(frozen=True, slots=True)
class HttpError:
    """Answer with this status and body instead of a stream (must be the first step)."""

    status: int
    body: bytes
    content_type: str = "application/json"
    headers: tuple[tuple[str, str], ...] = ()  # e.g. retry-after and the provider's rate-limit headers


@dataclass(frozen=True, slots=True)
class ProviderHttpError:
    """An HTTP error whose body is rendered in the case's dialect (``Dialect.error_body``) when the
    scenario expands into cases; a literal ``body`` in the file becomes a plain ``HttpError``."""

    status: int
    message: str
    code: str | None = None
    retry_after: float | None = None  # seconds: the Retry-After (and rate-limit) headers it carries


@dataclass(frozen=True, slots=True)
class MidStreamError:
    """The dialect's own mid-stream error frame (HTTP status already 200)."""

    error: StreamError


@dataclass(frozen=True, slots=True)
class Disconnect:
    """Close the connection abruptly: now, after ``after_bytes`` more bytes of the following steps,
    inside the next frame, or inside the next multi-byte UTF-8 code point."""

    where: Literal["now", "after-bytes", "inside-frame", "inside-utf8"] = "now"
    after_bytes: int = 0


@dataclass(frozen=True, slots=True)
class Stall:
    """Send nothing more and keep the connection open until the client leaves or ``timeout``."""

    timeout: float = 30.0


@dataclass(frozen=True, slots=True)
class MalformedFrame:
    """A frame whose data is not valid JSON (written in the transport's framing)."""

    data: str = '{"choices": [{"delta": {"content": "tru'


@dataclass(frozen=True, slots=True)
class UnknownEvent:
    """A frame with an event type the dialect does not define."""

    event: str = "thinkwire.unknown"
    data: str = '{"type":"thinkwire.unknown"}'


Step: TypeAlias = (
    Emit
    | EmitFrames
    | Raw
    | Gate
    | Pause
    | HttpError
    | MidStreamError
    | Disconnect
    | Stall
    | MalformedFrame
    | UnknownEvent
)


@dataclass(frozen=True, slots=True)
class Script:
    """One upstream response.

    ``chunking`` and ``perturbation`` name entries of ``harness.codec.CHUNKERS`` / ``PERTURBATIONS``.
    ``terminator``: ``normal``, ``missing`` (drop frames tagged ``terminal``) or ``doubled``.
    ``stream``: ``None`` follows the request's own ``stream`` flag (a non-streaming request gets the
    dialect's JSON body for the concatenated events). ``provider_rules`` names the provider rules whose
    validator runs on the request first (``lenient`` accepts anything).
    """

    dialect: str
    steps: tuple[Step, ...]
    variant: str | None = None
    chunking: str = "frames"
    perturbation: str = "none"
    terminator: Literal["normal", "missing", "doubled"] = "normal"
    stream: bool | None = None
    provider_rules: str = LENIENT
    model: str = "mock-model"
    headers: tuple[tuple[str, str], ...] = ()
    turn: int | None = None
    """The client turn this answer belongs to (None: the request's position in the conversation);
    several scripts of one turn are its attempts, in order (a SUT that retries meets them)."""
    attempt: int = 0

    def events(self) -> tuple[Event, ...]:
        """Every canonical event the script emits, in order (what the SUT should deliver)."""
        return tuple(ev for s in self.steps if isinstance(s, Emit) for ev in s.events)


@dataclass(frozen=True, slots=True)
class Conversation:
    """Scripts for successive upstream requests, in order: request N gets ``scripts[N]``; requests
    beyond the last get ``overflow`` (by default a 500 naming the unexpected request)."""

    scripts: tuple[Script, ...]
    name: str = ""
    overflow: Script | None = field(default=None)

    @classmethod
    def single(cls, script: Script) -> Conversation:
        return cls((script,))

    def __len__(self) -> int:
        return len(self.scripts)

    def script_for(self, n: int) -> Script | None:
        """The script of the ``n``-th request (0-based): ``scripts[n]``, then ``overflow``."""
        return self.scripts[n] if n < len(self.scripts) else self.overflow

    def turn_of(self, n: int) -> int:
        """The client turn the ``n``-th request answers: a scripted attempt shares its turn's number
        (the turn is the client's, the attempt the upstream's); otherwise ``n``."""
        script = self.script_for(n)
        return script.turn if script is not None and script.turn is not None else n

    def __getitem__(self, i: int) -> Script:
        return self.scripts[i]

    @staticmethod
    def of(scripts: Sequence[Script]) -> Conversation:
        return Conversation(tuple(scripts))
