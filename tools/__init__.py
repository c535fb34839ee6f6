"""Developer tooling that no user path reaches: the doc generators, the fidelity comparison and the detection
matrix. It lives outside ``harness`` so the wheel does not carry it; nox sessions and tests import it from
a checkout."""
