"""The SUT kinds, each with its :class:`Abilities`: what its profile must give and what the SUT can do. The
rest of thinkwire asks a profile's, ``SUTProfile.abilities``, and never compares a kind's name. A new kind is
a driver, a row of :data:`KIND_TABLE` and its registration in ``DRIVERS``."""

from __future__ import annotations

from dataclasses import dataclass

from harness.drivers._templates import CASE, RUN

__all__ = ["KINDS", "KIND_TABLE", "Abilities"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Abilities:
    """What a SUT kind needs, defaults to and can do. Each ability is a question the run or a check
    asks; the default is the answer for a SUT thinkwire talks to over HTTP."""

    needs: str
    """The key its profile must give (``command``, ``url``, ``callable``), said as ``what``."""
    what: str
    example: str = ""
    front_door: str = "openai-chat"
    usage: bool = True
    """It reports token usage (the profile's ``usage`` default)."""
    warmup: bool = False
    """It gets a warm-up request after the preflight, whose first-byte latency sets the gates' timeout."""
    cold_start: bool = False
    """Its first call also starts it (a python SUT imports its SDK then): the canary's budget adds the
    profile's ``ready_timeout``."""
    at_url: bool = False
    """Its front door is an HTTP URL, which is how messages name where it is reached."""
    in_process: bool = False
    """It runs in thinkwire's own interpreter: cases in flight would share it with the harness, so one
    at a time by default; messages name it by its callable."""
    one_conversation: bool = False
    """One process carries one conversation at a time: cases go one by one whatever
    ``--concurrency`` asks."""
    prompted: bool = False
    """It takes its conversation as prompts (profile ``input``) and answers each in one run: the prompt
    and the tool continuations it makes itself, one stream that ends once. A later prompt is the
    driver's to give, not a request the SUT failed to make; what its input cannot carry is unsupported."""
    started_per_case: bool = False
    """thinkwire starts it for every case: its command, env and session dir may use the per-case
    placeholders."""
    cleanup_watched: bool = False
    """Its process tree and session dir are watched per case: the cleanup check judges them, and a case
    that needs that evidence (a cleanup scenario, a fault switch acting on processes) runs alone."""
    survives_a_stuck_case: bool = True
    """After a case that timed out or overran the byte cap it is used as it is (False: thinkwire
    restarts it, as such a case may have left the process wedged)."""
    own_connections: bool = False
    """Each conversation it carries reaches the upstream on connections of its own, from a server
    process apart from thinkwire: a case that cancels or stalls is judged on its own upstream
    connection, which the other cases in flight do not touch, so it need not run alone."""
    second_instance: bool = False
    """thinkwire can start a second instance, with an upstream of its own, for the cases that need the
    SUT to themselves (``--concurrency``)."""
    shows_tool_calls: bool = True
    """Its client sees the tool calls (False: a plain-text CLI prints reasoning and answer only, so the
    calls it makes are judged upstream and never compared on the client's side)."""
    file_placeholders: tuple[str, ...] = RUN
    """The placeholders its profile's ``files`` may use (those written per case know the case)."""

    @property
    def starts_a_process(self) -> bool:
        """thinkwire starts the SUT from its ``command`` (fault switches go on that command line)."""
        return self.needs == "command"


KIND_TABLE: dict[str, Abilities] = {
    "gateway": Abilities(
        needs="command",
        what="a command",
        example='e.g. command = ["my-gateway", "--port", "{port}"]',
        warmup=True,
        at_url=True,
        own_connections=True,
        survives_a_stuck_case=False,
        second_instance=True,
    ),
    "url": Abilities(
        needs="url",
        what="the URL of the running SUT",
        example='e.g. url = "http://127.0.0.1:8080"',
        warmup=True,
        at_url=True,
        own_connections=True,
    ),
    "python": Abilities(
        needs="callable",
        what='callable = "module:function"',
        cold_start=True,
        in_process=True,
        file_placeholders=(*RUN, "model", "dialect", "variant", "provider", "front_door"),
    ),
    "cli": Abilities(
        needs="command",
        what="a command",
        example='e.g. command = ["my-agent", "{prompt}"]',
        front_door="pi-json",
        usage=False,
        prompted=True,
        started_per_case=True,
        cleanup_watched=True,
        file_placeholders=(*RUN, *CASE),
    ),
    "adapter": Abilities(
        needs="command",
        what="a command",
        example='e.g. command = ["node", "adapter.mjs"]',
        one_conversation=True,
    ),
}
"""The SUT kinds (a profile's ``kind``; a scenario's ``sut_kinds``), the one list of them: each has a
driver registered under its name in ``harness.drivers.DRIVERS``."""

KINDS = tuple(KIND_TABLE)
