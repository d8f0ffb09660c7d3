"""`debug --live` of a user's agent: it needs a recording or a model to answer, and says which when it has neither."""

from __future__ import annotations

import sys

import pytest

from tests.helpers.shop_agents import import_shop, record_shop
from tracer.cli import main


@pytest.fixture
def shop_folder(tmp_path, monkeypatch):
    yield tmp_path, monkeypatch
    sys.modules.pop("shop", None)


def test_without_a_recording_or_a_model_it_says_how_to_give_one(shop_folder, capsys):
    folder, monkeypatch = shop_folder
    import_shop(folder, monkeypatch)
    assert main(["debug", "--live", "shop:calling", "--print"]) == 2
    err = capsys.readouterr().err
    assert "shop:calling has no recording at" in err and "shop_calling.jsonl to answer its model" in err
    assert "--model replay:TRACE.jsonl" in err and "\n" not in err.strip()


def test_with_its_recording_it_runs_the_parallel_calls_to_the_end(shop_folder, capsys):
    folder, monkeypatch = shop_folder
    trace, spec = record_shop(folder, "calling", monkeypatch)
    assert main(["debug", "--live", spec, "--print", "--model", f"replay:{trace}"]) == 0
    out = capsys.readouterr().out
    assert "the run finished; trace written to" in out and "no delivery to Shanghai" in out
