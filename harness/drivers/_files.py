"""A profile's ``files``: the config files a SUT reads, written into its working directory ``{tmp}`` before it
starts. Reading happens when the profile loads and writing where the SUT starts, so a bad template fails
before any case."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from harness._fields import Err
from harness.drivers._templates import check, fill

__all__ = ["load_files", "write_files"]


def load_files(
    raw: Mapping[str, Any], base: Path, err: Err, allowed: tuple[str, ...]
) -> dict[str, str]:
    """File name -> content template: inline strings as they are, ``{ template = PATH }`` read from
    ``PATH`` (relative to ``base``, the profile's directory); every placeholder in a name or a
    content must be one of ``allowed``.

    A file's content is given inline, ``"gw.yaml" = "port: {port}"``, or read from a template file beside
    the profile, ``"gw.toml" = { template = "gw.toml.in" }``. An unreadable template is a ProfileError
    naming it, and its placeholders are checked like any other.
    """
    out: dict[str, str] = {}
    for name, value in raw.items():
        check(str(name), allowed, err, f"files.{name} (its name)")
        if not isinstance(value, Mapping):
            out[str(name)] = str(value)
            check(out[str(name)], allowed, err, f"files.{name}")
            continue
        extra = sorted(set(value) - {"template"})
        if extra or not isinstance(value.get("template"), str):
            raise err(
                f"files.{name}",
                f"a file is its content or a table {{ template = PATH }}, got keys {sorted(value)}",
                f'e.g. files = {{ "{name}" = {{ template = "{name}.in" }} }}',
            )
        path = base / value["template"]
        try:
            out[str(name)] = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise err(
                f"files.{name}.template",
                f"cannot read the template {str(path)!r}: {getattr(exc, 'strerror', None) or exc}",
                "a template's path is relative to the profile file",
            ) from None
        check(out[str(name)], allowed, err, f"files.{name}.template ({path})")
    return out


def write_files(files: Mapping[str, str], values: Mapping[str, str], tmp: Path) -> list[Path]:
    """Write each file, its name and content filled from ``values``; relative names land in ``tmp``.

    Files are filled once per run for a gateway and an adapter, and per case for a CLI and a Python SUT,
    which know the case's ``{model}``, ``{dialect}``, ``{variant}`` and ``{provider}`` too.
    """
    written: list[Path] = []
    for name, content in files.items():
        target = Path(fill(name, values))
        if not target.is_absolute():
            target = tmp / target
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(fill(content, values), encoding="utf-8")
        written.append(target)
    return written
