"""A real headless Chromium opens the HTML report: the DOM has the matrix and an open case with its SVG
timeline, and the screenshot is a real picture (stdlib PNG reading: zlib + struct)."""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
import zlib
from pathlib import Path
from urllib.parse import quote

import pytest

from harness.report import render_html
from harness.suite import RunResult

_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found:
        return found
    if os.name != "posix" or os.geteuid() != 0 or not shutil.which("apt-get"):
        pytest.skip("chromium is not installed and cannot be installed here (needs root and apt-get)")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for cmd in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", "chromium"]):
        done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=900, check=False)
        if done.returncode != 0:
            pytest.skip(f"chromium could not be installed: {' '.join(cmd)}: {done.stderr.strip()[-300:]}")
    found = shutil.which("chromium")
    if not found:
        pytest.skip("apt-get installed chromium but no `chromium` is on PATH")
    return found


def _chromium(binary: str, tmp: Path, url: str, *extra: str) -> subprocess.CompletedProcess[str]:
    cmd = [binary, *_FLAGS, f"--user-data-dir={tmp / 'profile'}", "--window-size=1400,1800", *extra, url]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=180, check=False, cwd=tmp)


def _png_rows(data: bytes, max_rows: int) -> tuple[int, int, list[bytes], int]:
    """Width, height, the first ``max_rows`` unfiltered rows and bytes per pixel (8-bit RGB/RGBA)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, header = 8, b"", b""
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour = struct.unpack(">IIBB", header[:10])
    assert (depth, colour) in ((8, 2), (8, 6)), f"unexpected PNG format: depth {depth}, colour type {colour}"
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompressobj().decompress(idat, max_rows * (width * bpp + 1))
    stride = width * bpp
    rows: list[bytes] = []
    prev = bytearray(stride)
    for y in range(min(max_rows, height)):
        line = raw[y * (stride + 1) : (y + 1) * (stride + 1)]
        ftype, cur = line[0], bytearray(line[1:])
        for i in range(stride):
            a = cur[i - bpp] if i >= bpp else 0
            b = prev[i]
            if ftype == 1:
                cur[i] = (cur[i] + a) & 255
            elif ftype == 2:
                cur[i] = (cur[i] + b) & 255
            elif ftype == 3:
                cur[i] = (cur[i] + ((a + b) >> 1)) & 255
            elif ftype == 4:
                c = prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                cur[i] = (cur[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(cur))
        prev = cur
    return width, height, rows, bpp


def _report(run: RunResult, tmp_path: Path) -> Path:
    page = tmp_path / "report.html"
    page.write_text(render_html(run), encoding="utf-8")
    return page


def test_dom_has_matrix_and_the_first_failing_case_open(
    chromium: str, run_result: RunResult, tmp_path: Path
) -> None:
    page = _report(run_result, tmp_path)
    done = _chromium(chromium, tmp_path, page.as_uri(), "--dump-dom")
    assert done.returncode == 0, done.stderr[-2000:]
    dom = done.stdout
    for r in run_result.results:
        assert f'data-case="{r.case_id}"' in dom
    assert dom.count('<tr class="case') == 6
    # the script opened the first unexpected FAIL (row 1): its template was cloned in
    assert dom.count('<tr class="case open"') == 1
    assert '<tr class="case open" id="row-1"' in dom
    assert '<tr class="detail" id="detail-1"><td colspan="11"><div class="detail-body"' in dom
    opened = dom.split('id="detail-1"', 1)[1].split("</details></div></td></tr>", 1)[0]
    assert '<svg xmlns="http://www.w3.org/2000/svg" class="timeline"' in opened
    assert 'class="gate timeout evidence"' in opened
    assert "reasoning was buffered until the upstream gate timed out" in opened
    assert '<tr class="detail" id="detail-5" hidden="">' in dom
    assert "6 of 6 shown" in dom


def test_case_anchor_opens_that_case(chromium: str, run_result: RunResult, tmp_path: Path) -> None:
    page = _report(run_result, tmp_path)
    target = run_result.results[5].case_id
    done = _chromium(chromium, tmp_path, page.as_uri() + "#case=" + quote(target, safe=""), "--dump-dom")
    assert done.returncode == 0, done.stderr[-2000:]
    dom = done.stdout
    assert dom.count('<tr class="case open"') == 1
    assert '<tr class="case open" id="row-5"' in dom
    assert '<tr class="detail" id="detail-1" hidden="">' in dom
    opened = dom.split('id="detail-5"', 1)[1].split("</details></div></td></tr>", 1)[0]
    assert 'class="marker cancel"' in opened
    assert 'class="tick sut process-left evidence"' in opened


def test_screenshot_is_a_real_picture(chromium: str, run_result: RunResult, tmp_path: Path) -> None:
    page = _report(run_result, tmp_path)
    shot = tmp_path / "shot.png"
    done = _chromium(chromium, tmp_path, page.as_uri(), f"--screenshot={shot}")
    assert done.returncode == 0, done.stderr[-2000:]
    data = shot.read_bytes()
    assert len(data) > 20_000
    width, height, rows, bpp = _png_rows(data, 160)
    assert (width, height) == (1400, 1800)
    colours = {row[i : i + 3] for row in rows for i in range(0, len(row), bpp * 7)}
    assert len(colours) > 8
    assert bytes((0x2D, 0x34, 0x36)) in colours  # the header's background
    assert bytes((0xFF, 0xFF, 0xFF)) in colours
    keep = os.environ.get("THINKWIRE_KEEP_SCREENSHOT")
    if keep:
        shutil.copy(shot, keep)
