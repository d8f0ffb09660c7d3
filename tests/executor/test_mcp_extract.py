"""Defensive extraction: expressions tried in order, a JSON-text match decoded and probed again, a miss described."""

from __future__ import annotations

import json

import pytest

from executor.tools.mcp_extract import checked_paths, extract, outline

PATHS = ("$.pages", "$.data.pages", "$.result.content[0].text", "$.choices[0].message.content")
PAGES = [{"title": "roses", "url": "https://example.com"}]


@pytest.mark.parametrize(
    "answer, matched, tried",
    [
        ({"pages": PAGES}, "$.pages", 1),
        ({"code": 0, "data": {"pages": PAGES}}, "$.data.pages", 2),
        ({"result": {"content": [{"text": json.dumps({"pages": PAGES})}]}}, "$.result.content[0].text → $.pages", 3),
        ({"choices": [{"message": {"content": json.dumps(PAGES)}}]}, "$.choices[0].message.content", 4),
    ],
)
def test_each_vendor_shape_is_found_by_its_path_after_the_ones_before_it_missed(answer, matched, tried):
    found = extract(answer, PATHS)
    assert found.value == PAGES and found.matched == matched
    assert found.paths == list(PATHS[:tried])
    assert found.decoded == (tried >= 3) and found.shape is None


def test_the_first_match_wins_even_when_a_later_path_would_match_too():
    found = extract({"pages": ["top"], "data": {"pages": ["inner"]}}, PATHS)
    assert (found.value, found.matched) == (["top"], "$.pages")


def test_a_miss_lists_every_path_and_outlines_the_answer_without_its_data():
    found = extract({"items": [{"title": "secret title", "rank": 1}] * 3, "total": 3}, PATHS)
    assert found.value is None and found.matched is None and found.paths == list(PATHS)
    assert found.shape == '{"items": [{"title": text(12), "rank": int}] ×3, "total": int}'
    assert "secret" not in found.shape


def test_text_that_is_not_json_is_the_answer_as_it_is():
    found = extract({"choices": [{"message": {"content": "no results today"}}]}, PATHS)
    assert (found.value, found.decoded) == ("no results today", False)


def test_json_text_inside_json_text_stops_after_two_decodings():
    innermost = json.dumps({"pages": PAGES})
    twice = json.dumps({"result": {"content": [{"text": innermost}]}})
    found = extract({"choices": [{"message": {"content": twice}}]}, PATHS)
    assert found.matched == "$.choices[0].message.content → $.result.content[0].text → $.pages"
    assert found.value == PAGES


def test_an_outline_is_cut_to_its_budget():
    assert len(outline({f"key{i}": "v" for i in range(100)}, budget=40)) == 40


@pytest.mark.parametrize("bad", ["$.[pages", "", "   ", 3])
def test_a_bad_path_is_a_one_line_error(bad):
    with pytest.raises(ValueError) as failure:
        checked_paths(["$.pages", bad], "mcp_tools")
    assert "\n" not in str(failure.value) and str(failure.value).startswith("mcp_tools: ")


def test_no_paths_at_all_is_refused():
    with pytest.raises(ValueError, match="at least one JSONPath"):
        checked_paths([], "mcp_tools")


def test_a_path_that_finds_several_nodes_keeps_every_one_and_says_how_many():
    shops = {"data": {"results": [{"name": "Rose House"}, {"name": "Tulip Hall"}, {"name": "Lily Lane"}]}}
    found = extract(shops, ["$.data.results[*].name"])
    assert found.value == ["Rose House", "Tulip Hall", "Lily Lane"] and found.count == 3
    one = extract({"data": {"results": [{"name": "Rose House"}]}}, ["$.data.results[*].name"])
    assert (one.value, one.count) == ("Rose House", 1)  # a single node stays itself, not a list of one
    inside = extract({"text": json.dumps(shops)}, ["$.text", "$.data.results[*].name"])
    assert (inside.matched, inside.count) == ("$.text → $.data.results[*].name", 3)
    assert len(inside.value) == 3
