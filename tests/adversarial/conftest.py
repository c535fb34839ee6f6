"""Fixtures of the adversarial suite (the helpers live in ``_adversarial``)."""

from _adversarial import sandbox

__all__ = ["sandbox"]
