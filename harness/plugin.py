"""pytest plugin (registered by entry point). Imports thinkwire lazily: no cost unless used."""

from __future__ import annotations
