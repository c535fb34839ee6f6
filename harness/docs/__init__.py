"""Documentation generators: tools that run the suite and write the pages in ``docs/`` (and the pictures
in ``docs/img/``). Not part of the suite: nothing in ``harness`` imports them; each runs as
``python -m harness.docs.<module>`` from a nox session.

- ``_history``: ``nox -s ecosystem -- --history PROFILE`` -> docs/ecosystem-history.md
- ``_ecosystem_page``: docs/ecosystem-results.md -> docs/ecosystem-results.html
- ``_screenshots``: ``nox -s screenshots`` -> docs/img/report.png and docs/img/swimlane.png
- ``_browser``: headless Chromium, the one way these tools (and the browser tests) drive it
"""
