# thinkwire as a container image: `docker run --network host <image> run --sut-url ... --upstream-listen ...`
# without Python on the machine. Built from a checkout (thinkwire is not on the package index):
#   docker build -t thinkwire .
# BASE: any Debian-like image with python3 >= 3.11 and its venv module (the default, or Debian bookworm's
# python3 with python3-venv: tools/docker makes one where no registry is reachable). thinkwire goes into
# a venv at /opt/thinkwire, which is first on PATH (a distribution's python3 may be externally managed).
# PIP_*: how pip reaches the package index during the build (an index mirror, a CA bundle already in
# the base image); none is needed where pypi.org is reached directly.
ARG BASE=python:3.12-slim
FROM ${BASE}
ARG PIP_INDEX_URL PIP_EXTRA_INDEX_URL PIP_TRUSTED_HOST PIP_CERT PIP_DEFAULT_TIMEOUT
ENV PATH=/opt/thinkwire/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
# What the wheel is built from, all that .dockerignore lets into the context: pyproject.toml, README.md,
# the package with the reference SUTs, the bundled scenarios and the recordings they replay.
COPY . /tmp/thinkwire-src/
RUN python3 -m venv /opt/thinkwire \
    && /opt/thinkwire/bin/pip install --no-cache-dir '/tmp/thinkwire-src[fast]' \
    && rm -rf /tmp/thinkwire-src \
    && thinkwire list > /dev/null
# Reports and profiles: mount your workspace here (-v "$PWD:/work").
WORKDIR /work
ENTRYPOINT ["thinkwire"]
