"""A Python SUT configured by file: it reads ``sut.toml`` from ``request.tmp`` (rendered per case from
the profile's template) and calls the provider the file names, never ``request.base_url``."""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from pathlib import Path

from harness.dialects import get_dialect
from harness.drivers import SUTRequest
from harness.events import Event

SEEN: list[str] = []  # the directories the SUT read its file from


def from_file(request: SUTRequest) -> Iterator[Event]:
    config = tomllib.loads((Path(request.tmp) / "sut.toml").read_text())
    SEEN.append(request.tmp)
    if config["model"] != request.model or config["dialect"] != request.dialect:
        raise RuntimeError(f"the config file is not this case's: {config}")
    body = {"model": config["model"], "messages": [{"role": "user", "content": request.messages[-1].text}],
            "stream": True}
    observer = get_dialect("openai-chat").observer()
    with request.http.stream("POST", config["base_url"] + "/v1/chat/completions", json=body) as resp:
        for data in resp.iter_raw():
            yield from observer.feed(data)
    yield from observer.end()
