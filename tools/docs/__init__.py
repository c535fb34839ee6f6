"""Documentation generators: tools that run the suite and write the pages in ``docs/``, the pictures in
``docs/img/``, and the expectations files beside the profiles they measure. Nothing in ``harness`` imports
them; each runs as ``python -m tools.docs.<module>`` from a nox session.

- ``_sdk_results``: ``nox -s sdks`` -> docs/sdk-results.md and profiles/sdk-*.expectations.toml
- ``_ecosystem_results``: ``nox -s ecosystem`` -> docs/ecosystem-results.md and the packages' expectations
- ``_ecosystem_page``: docs/ecosystem-results.md -> docs/ecosystem-results.html
- ``_history``: ``nox -s ecosystem -- --history PROFILE`` -> docs/ecosystem-history.md
- ``_matrix``: ``nox -s matrix`` -> docs/detection-matrix.md (the data lives in ``tools._matrix``)
- ``_fidelity``: ``nox -s fidelity`` -> docs/fidelity.md and the corpus table of recordings/README.md
  (the comparison itself lives in ``tools.fidelity``)
- ``_request_forms``: docs/request-forms.md (the rows live in ``harness.dialects._request_forms``)
- ``_screenshots``: ``nox -s screenshots`` -> docs/img/report.png and docs/img/swimlane.png
- ``_browser``: headless Chromium, the one way these tools (and the browser tests) drive it
"""
