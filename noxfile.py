"""Sessions: tests and tests_slow (the README's test command runs both), lint, bench, sdks, ecosystem,
matrix, fidelity, screenshots, docker."""

from __future__ import annotations

import nox

nox.options.sessions = ["tests", "tests_slow", "lint"]
nox.options.reuse_existing_virtualenvs = True
nox.options.default_venv_backend = "venv"

PY = "3.11"


@nox.session(python=PY)
def tests(session: nox.Session) -> None:
    """The test suite without the tests marked slow (tests_slow runs those), with the test extras.
    Extra args go to pytest."""
    session.install("-e", ".[test,fast]")
    session.run("pytest", "-q", "-n", "2", "-m", "not slow and not docker", *session.posargs)


@nox.session(python=PY)
def tests_slow(session: nox.Session) -> None:
    """The tests marked slow: CI runs them after ``tests``, so that together they are the whole suite.
    A few of them take a minute or more: an idle worker takes half of the other's queue (worksteal),
    instead of waiting while the other runs the long tests left in its own (load)."""
    session.install("-e", ".[test,fast]")
    session.run(
        "pytest", "-q", "-n", "2", "--dist", "worksteal", "-m", "slow and not docker", *session.posargs
    )


@nox.session(python=PY)
def docker(session: nox.Session) -> None:
    """The container image (Dockerfile): the tests marked docker build it and run catalog slices in it,
    the reference gateway in a container of its own. They use the daemon answering on the default
    socket, or start one (and make the base image, tools/docker) and undo that at the end; where none
    can start they skip, saying why. Not in the default sessions; .ci/run runs it last."""
    session.install("-e", ".[test,fast]")
    session.run("pytest", "-q", "-n", "0", "-m", "docker", "tests/docker", *session.posargs)


@nox.session(python=PY)
def lint(session: nox.Session) -> None:
    """ruff, mypy --strict on harness, import-linter's one-way layers contract, and actionlint on the
    sample workflow (its ``uses: ./`` checks action.yml's inputs too)."""
    session.install("-e", ".[test,lint,fast,actionlint]")
    session.run("ruff", "check", "harness", "tools", "tests", "benchmarks", "noxfile.py")
    session.run("mypy")
    session.run("lint-imports")
    session.run("actionlint", ".github/workflows/thinkwire-shards.yml")


@nox.session(python=PY)
def sdks(session: nox.Session) -> None:
    """The official SDKs as SUTs: writes profiles/*.expectations.toml and docs/sdk-results.md, then runs
    the SDK regression suites (tests/sdks) against those expectations."""
    session.install("-e", ".[test,sdks,fast]")
    session.run("python", "-m", "tools.docs._sdk_results", "docs/sdk-results.md")
    session.run("pytest", "-q", "tests/sdks", *session.posargs)


@nox.session(python=PY)
def ecosystem(session: nox.Session) -> None:
    """Real gateways and framework wrappers as SUTs (pinned; not part of .ci/run): writes
    profiles/<package>.expectations.toml, docs/ecosystem-results.md and its HTML page. Args: profile
    names to run. The pins are those of tools/docs/_ecosystem_results.py PACKAGES.
    ``nox -s ecosystem -- --history PROFILE [N]``: that profile across the last N (3) released versions
    of its package, each in a venv of its own -> docs/ecosystem-history.md."""
    if session.posargs[:1] == ["--history"]:
        session.install("-e", ".[fast]")
        session.run("python", "-m", "tools.docs._history", *session.posargs[1:])
        return
    session.install(
        "-e",
        ".[fast]",
        "litellm[proxy]==1.108.7",
        "langchain-openai==1.8.1",
        "langchain-deepseek==1.1.1",
        "pydantic-ai-slim[openai,anthropic]==2.68.0",
        "langgraph==1.2.24",
    )
    # The Node adapters' packages (adapters/node), from the npm registry into this session's env dir
    # (never into the repository): their pins are NODE_PACKAGES of tools/docs/_ecosystem_results.py.
    node = f"{session.virtualenv.location}/node"
    pins = session.run(
        "python", "-c", "from tools.docs._ecosystem_results import NODE_PACKAGES as P; print(' '.join(P))",
        silent=True,
    )
    npm = ("npm", "install", "--prefix", node, "--no-audit", "--no-fund", "--no-package-lock")
    session.run(*npm, "--ignore-scripts", *str(pins).split(), external=True)
    session.run(
        "python",
        "-m",
        "tools.docs._ecosystem_results",
        "docs/ecosystem-results.md",
        *session.posargs,
        env={"LITELLM_MASTER_KEY": "sk-thinkwire-local", "THINKWIRE_NODE_MODULES": f"{node}/node_modules"},
    )
    session.run("python", "-m", "tools.docs._ecosystem_page", "docs/ecosystem-results.md")


@nox.session(python=PY)
def matrix(session: nox.Session) -> None:
    """The detection matrix (every fault switch vs its designed check) and the perturbations' mutation
    score (per perturbation x dialect, the parser mutants it kills; printed) -> docs/detection-matrix.md."""
    session.install("-e", ".[test,fast]")
    session.run("python", "-m", "tools.docs._matrix", "docs/detection-matrix.md")


@nox.session(python=PY)
def fidelity(session: nox.Session) -> None:
    """The mock against the real recorded corpus: writes docs/fidelity.md and the corpus table of
    recordings/README.md; fails on an unexplained difference (tests/fidelity, in the tests session, fails
    on the same). The corpus is read from $THINKWIRE_CORPUS or ../shared/corpus beside the checkout
    (``thinkwire corpus fetch`` builds it); ``nox -s fidelity -- --corpus DIR`` names another folder."""
    session.install("-e", ".[fast]")
    session.run("python", "-m", "tools.docs._fidelity", "docs/fidelity.md", *session.posargs)


@nox.session(python=PY)
def bench(session: nox.Session) -> None:
    """Benchmarks as ratios against peers measured in the same run; writes docs/benchmarks.md."""
    session.install("-e", ".[test,bench,fast]")
    # bytecode cached as on a default Python (some machines set PYTHONDONTWRITEBYTECODE, and then every
    # process of a parallel run would compile the whole package from source again)
    session.run("python", "-m", "compileall", "-q", "harness", "benchmarks")
    session.run("python", "-m", "benchmarks", *session.posargs)


@nox.session(python=PY)
def screenshots(session: nox.Session) -> None:
    """The README's pictures (docs/img/report.png, docs/img/swimlane.png), taken by headless Chromium of
    a real run with a fault switch (chromium on PATH: Debian's package)."""
    session.install("-e", ".[fast]")
    session.run("python", "-m", "tools.docs._screenshots", "docs/img")
