"""loopscope's pytest plugin: run agent loops under trace cassettes and snapshot their transitions."""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("loopscope", "loopscope trace cassettes")
    group.addoption("--loopscope-record", dest="loopscope_record", default=None,
                    choices=("none", "once", "rewrite"),
                    help="none (default): replay cassettes only; once: record missing cassettes; "
                         "rewrite: record every cassette again")
