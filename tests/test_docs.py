"""The manual holds to the code: README's size, its links, every documented command line, the API pages and the key tables."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
import shlex
from pathlib import Path

import pytest
from markdown.extensions.toc import slugify

import executor
import tracer
from tests.helpers.paths import ROOT
from tracer.cli import COMMANDS, build_parser

DOCS = ROOT / "docs"
DOCUMENTS = [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]
CODE_BLOCK = re.compile(r"^```(\w+)\n(.*?)^```$", re.S | re.M)
LINK = re.compile(r"\]\(([^)\s]+)\)")


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _name(path: Path) -> str:
    return str(path.relative_to(ROOT))


def test_the_readme_is_a_front_door():
    lines = _text(ROOT / "README.md").splitlines()
    assert len(lines) <= 300, f"README.md has {len(lines)} lines; move the manual's parts to docs/"
    readme = "\n".join(lines)
    # The two commands, exactly as CI runs the second one.
    assert "uv run loopscope tutorial rose-pricing" in readme and "\nuv run pytest " in readme
    assert re.search(r"^uv run pytest$", _text(ROOT / ".ci" / "run"), re.M)


def _anchors(path: Path) -> set[str]:
    """The ids Python-Markdown's toc gives the headings (what mkdocs links to), outside code blocks."""
    text = CODE_BLOCK.sub("", _text(path))
    headings = re.findall(r"^#{1,6} (.+?)\s*$", text, re.M)
    return {slugify(re.sub(r"[`*]", "", heading), "-") for heading in headings}


@pytest.mark.parametrize("document", DOCUMENTS, ids=_name)
def test_every_relative_link_reaches_a_file_and_heading(document):
    for target in LINK.findall(CODE_BLOCK.sub("", _text(document))):
        if re.match(r"[a-z]+:", target):
            continue  # a web address: not checked offline
        path, _, anchor = target.partition("#")
        linked = (document.parent / path).resolve() if path else document
        assert linked.exists(), f"{_name(document)} links to {target}, which does not exist"
        if anchor:
            assert anchor in _anchors(linked), f"{_name(document)} links to {target}: no such heading"


def _command_lines(text: str):
    """Each `loopscope ...` command written in a bash or console block, as argv."""
    for language, body in CODE_BLOCK.findall(text):
        if language not in ("bash", "console"):
            continue
        lines = body.replace("\\\n", " ").splitlines()
        prompted = [line[2:] for line in lines if line.startswith("$ ")]
        for line in prompted or lines:
            lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
            lexer.whitespace_split = True
            segment: list[str] = []
            for token in [*lexer, ";"]:
                if set(token) <= set(";&|<>()"):
                    if "loopscope" in segment:
                        yield line, segment[segment.index("loopscope") + 1 :]
                    segment = []
                else:
                    segment.append(token)


@pytest.mark.parametrize("document", DOCUMENTS, ids=_name)
def test_every_documented_command_line_parses(document):
    """A flag renamed or dropped fails here, naming the line to fix."""
    for line, argv in _command_lines(_text(document)):
        try:
            build_parser(argv).parse_args(argv)
        except SystemExit as exit:
            pytest.fail(f"{_name(document)}: `{line}` does not parse (exit {exit.code})")


def test_every_command_is_documented():
    manual = "\n".join(_text(document) for document in DOCUMENTS)
    missing = [name for name in COMMANDS if f"loopscope {name}" not in manual]
    assert not missing, f"no page shows `loopscope {missing[0]}`"


def _defined_at(package, name: str, module: str) -> str:
    """`module.qualname` of where the public name is defined (a constant: the module the table names)."""
    value = getattr(package, name)
    defining, qualname = getattr(value, "__module__", None), getattr(value, "__qualname__", None)
    if isinstance(defining, str) and isinstance(qualname, str):
        return f"{defining}.{qualname}"
    return f"{module if module.startswith(package.__name__) else package.__name__ + '.' + module}.{name}"


REFERENCE = {executor: DOCS / "reference" / "executor.md", tracer: DOCS / "reference" / "tracer.md"}


@pytest.mark.parametrize("package", REFERENCE, ids=lambda package: package.__name__)
def test_the_api_reference_shows_every_public_name_where_it_is_defined(package):
    """mkdocstrings reads the defining module, so the lazy names in __init__ need no import to document."""
    shown = set(re.findall(r"^::: (\S+)$", _text(REFERENCE[package]), re.M))
    for name, module in package._PUBLIC.items():
        where = _defined_at(package, name, module)
        assert where in shown, f"{REFERENCE[package].name} lacks `::: {where}` (public name {name})"


def test_every_reference_target_exists():
    for page in sorted((DOCS / "reference").glob("*.md")):
        for target in re.findall(r"^::: (\S+)$", _text(page), re.M):
            module, _, name = target.rpartition(".")
            assert hasattr(importlib.import_module(module), name), f"{page.name}: {target} does not exist"


# Textual's key names as the tables write them.
KEY_NAMES = {
    "question_mark": "?",
    "slash": "/",
    "colon": ":",
    "right_square_bracket": "]",
    "left_square_bracket": "[",
    "plus": "+",
    "equals_sign": "=",
    "minus": "-",
    "escape": "esc",
    "up": "↑",
    "down": "↓",
    "left": "←",
    "right": "→",
    "pageup": "pgup",
    "pagedown": "pgdn",
}


def _bindings() -> dict[str, set[str]]:
    """{binding id: its keys} for every class in tracer.tui that declares bindings."""
    import tracer.tui

    found: dict[str, set[str]] = {}
    for info in pkgutil.walk_packages(tracer.tui.__path__, "tracer.tui."):
        module = importlib.import_module(info.name)
        for cls in vars(module).values():
            if inspect.isclass(cls) and cls.__module__ == module.__name__ and "BINDINGS" in vars(cls):
                for binding in cls.BINDINGS:
                    if getattr(binding, "id", None):
                        found[binding.id] = {KEY_NAMES.get(key, key) for key in binding.key.split(",")}
    return found


@pytest.mark.slow  # imports Textual and every screen
def test_the_key_tables_are_the_debuggers_bindings():
    rows = re.findall(r"^\| (`[^|]+`) \| `([\w-]+)` \|", _text(DOCS / "debugger.md"), re.M)
    documented = {binding: set(re.findall(r"`([^`]+)`", keys)) for keys, binding in rows}
    bindings = _bindings()
    assert len(bindings) > 50
    for binding, keys in bindings.items():
        assert binding in documented, f"docs/debugger.md has no row for the binding {binding!r} ({keys})"
        assert documented[binding] == keys, f"docs/debugger.md gives {binding!r} {documented[binding]}, bound {keys}"
    assert not set(documented) - set(bindings), f"documented but not bound: {set(documented) - set(bindings)}"


# A path into the repository anywhere on a page (prose, tables, captures), without a trailing `:LINE`.
REPOSITORY_PATH = re.compile(r"(?<![\w/.-])((?:executor|tracer|tutorials|tests|fixtures|bench|docs)/[\w./*-]*[\w*])")


@pytest.mark.parametrize("document", DOCUMENTS, ids=_name)
def test_every_repository_path_named_exists(document):
    """`executor/tools.py` became `executor/tools/tool.py`: a page naming a file that moved fails here."""
    text = _text(document)
    for found in REPOSITORY_PATH.finditer(text):
        if text.startswith("…", found.end()):  # cut short in a terminal capture: a prefix of a real path
            assert list(ROOT.glob(found[1] + "*")), (
                f"{_name(document)} names {found[1]}…, which is not in the repository"
            )
            continue
        path = found[1]
        path = re.sub(r"\.(interrupted|failed|lost)$", "", path)  # what a broken recording leaves beside FILE
        assert list(ROOT.glob(path)), f"{_name(document)} names {path}, which is not in the repository"
