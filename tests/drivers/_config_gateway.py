"""A gateway configured by file only: ``python _config_gateway.py CONFIG.toml`` reads the upstream and
the port from the TOML file, then serves as the reference gateway does (it has no flags of its own)."""

from __future__ import annotations

import sys
import tomllib

from harness.reference.gateway import main

if __name__ == "__main__":
    with open(sys.argv[1], "rb") as f:
        config = tomllib.load(f)
    sys.exit(main(["--port", str(config["listen"]["port"]), "--upstream", config["upstream"]["base_url"]]))
