"""Documentation generators: tools that run the suite and write the pages in ``docs/`` (and the
expectations files beside the profiles they measure). Not part of the suite: nothing in ``harness``
imports them; each runs as ``python -m harness.docs.<module>`` from a nox session.

- ``_fidelity``: ``nox -s fidelity`` -> docs/fidelity.md and the corpus table of recordings/README.md
  (the comparison itself lives in ``harness.fidelity``)
"""
