"""A Docker daemon and a base image for testing thinkwire's container image on a machine that reaches
Debian's package mirror but no image registry. ``up`` starts what is missing and records it in a state
file; ``down`` undoes exactly what that record says, so a daemon or image that was already there stays."""

from tools.docker._build import build_image
from tools.docker._state import DOCKER_LABEL, State, down, up

__all__ = ["DOCKER_LABEL", "State", "build_image", "down", "up"]
