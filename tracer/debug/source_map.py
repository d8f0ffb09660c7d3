"""The executor's source as the debugger shows it: files, their hashes, and where each frame waits."""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path, PurePosixPath

from executor.paths import PACKAGE_DIR, PROJECT_ROOT

from ..i18n import Message
from ..trace.header import TraceHeader


@dataclass(frozen=True)
class SourceFile:
    """One source file: its lines, and why it may not be what recorded the trace."""

    path: str
    lines: tuple[str, ...]
    sha256: str
    problem: Message | None = None  # set when the file cannot be read: handed up for the pane to say


@dataclass(frozen=True)
class FrameLocation:
    """Where a frame of the call stack is: exact for the event's own frame, inferred for callers."""

    function: str
    file: str | None
    line: int | None
    exact: bool
    callee: bool = False  # the user's function the event calls into (its first line), not a loop frame


def installed_package_file(relative: str) -> Path | None:
    """`langchain_classic/agents/agent.py` inside the installed package of that name, if it is one.

    A traced LangChain run names its files this way (relative to site-packages). Only a .py file
    inside the directory of an importable top-level package qualifies: a trace names files, and
    must not be able to open any file at all. The package is located, not imported.
    """
    parts = PurePosixPath(relative).parts
    if len(parts) < 2 or not relative.endswith(".py") or ".." in parts or parts[0].startswith("/"):
        return None
    try:
        spec = importlib.util.find_spec(parts[0])
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    package_dir = Path(next(iter(spec.submodule_search_locations))).resolve()
    if package_dir == PROJECT_ROOT / parts[0]:
        return None  # a project package is read through the project root
    path = (package_dir.parent / relative).resolve()
    return path if path.is_relative_to(package_dir) else None


@lru_cache(maxsize=64)
def read_source(relative: str) -> SourceFile:
    path = (PROJECT_ROOT / relative).resolve()
    installed = None if path.exists() else installed_package_file(relative)
    if installed is not None:  # an installed package's file: shown read-only, as it is on disk
        path = installed
    elif not path.is_relative_to(PROJECT_ROOT):  # a trace names files; it must not open any file at all
        return SourceFile(relative, (), "", Message("panes.source.outside", {"path": relative, "root": PROJECT_ROOT}))
    try:
        data = path.read_bytes()
    except OSError:
        return SourceFile(relative, (), "", Message("panes.source.missing", {"path": relative, "root": PROJECT_ROOT}))
    text = data.decode("utf-8", errors="replace")
    return SourceFile(relative, tuple(text.splitlines()), hashlib.sha256(data).hexdigest())


USER_SOURCE_LIMIT = 2_000_000  # bytes; a user's module, not a data file


@lru_cache(maxsize=64)
def definition_line(named: str, first_line: int) -> int:
    """The `def` line of the user's function that starts at `first_line` (a code object's first line
    is its first decorator's): where the debugger marks a callee, rather than on `@tool`."""
    lines = read_user_source(named).lines
    for number in range(first_line, min(first_line + DECORATOR_LINES, len(lines)) + 1):
        if lines[number - 1].lstrip().startswith(("def ", "async def ")):
            return number
    return first_line  # not found near there (the file changed, or no source): where the code says


DECORATOR_LINES = 40  # how far below the first decorator a def is looked for


def read_user_source(named: str) -> SourceFile:
    """A user's own file that an event's callee names, read (only) to show it: a .py file at the
    path recorded, or, for a trace recorded elsewhere, the file of that name in the working directory."""
    if not named.endswith(".py"):
        return SourceFile(named, (), "", Message("panes.source.not_python", {"path": named}))
    path = Path(named) if Path(named).is_absolute() else PROJECT_ROOT / named
    if not path.is_file():
        path = Path.cwd() / Path(named).name
    try:
        if path.stat().st_size > USER_SOURCE_LIMIT:
            return SourceFile(named, (), "", Message("panes.source.too_large", {"path": named}))
        data = path.read_bytes()
    except OSError:
        return SourceFile(named, (), "", Message("panes.source.user_missing", {"path": named}))
    text = data.decode("utf-8", errors="replace")
    return SourceFile(named, tuple(text.splitlines()), hashlib.sha256(data).hexdigest())


def hash_warning(source: SourceFile, header: TraceHeader) -> Message | None:
    """A warning when the file on disk is not the one that recorded the trace."""
    recorded = header.executor_hashes.get(source.path)
    if source.problem or recorded is None:
        return None
    if recorded != source.sha256:
        return Message("panes.source.changed", {"path": source.path})
    return None


def moved_line_warning(source: SourceFile, function: str, line: int) -> Message | None:
    """A warning when a recorded line is not inside the function that emitted it: the code moved since
    the recording. The innermost `def` above the line, by indentation, is the function holding it; a
    text scan, not a parse, since it runs on every move the debugger makes."""
    if source.problem or line <= 0:
        return None
    if line > len(source.lines):
        return Message("panes.source.no_line", {"path": source.path, "line": line})
    text = source.lines[line - 1]
    depth = len(text) - len(text.lstrip())
    for above in reversed(source.lines[: line - 1]):
        stripped = above.lstrip()
        indent = len(above) - len(stripped)
        if stripped and indent < depth and stripped.startswith(("def ", "async def ")):
            name = stripped.split("def ", 1)[1].split("(", 1)[0].strip()
            if name == function:
                return None
            break
        if stripped and not stripped.startswith(("#", "@", ")", "]", "}")):  # a block opener, not a closing bracket
            depth = min(depth, indent)
    return Message("panes.source.moved", {"path": source.path, "line": line, "function": function})


@dataclass(frozen=True)
class _Function:
    file: str
    name: str
    first: int
    last: int
    calls: tuple[tuple[str, int], ...]  # (called name, line), in source order
    delegations: tuple[int, ...]  # lines of `yield from` expressions
    # What says where a generator made on one line runs (see _driven_at), and calls of a name
    # bound at run time (a parameter, a local, a getattr of a method by its name).
    flow: tuple[tuple[str, int, str, str], ...] = ()  # (what, line, name, other)


def _called_name(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    if isinstance(call.func, ast.Name):
        return call.func.id
    return None


@lru_cache(maxsize=64)
def _scan(path: Path) -> list[_Function]:
    """Every function of the file with the calls and `yield from`s inside it (nested functions' too)."""
    return _functions_of(ast.parse(path.read_text(encoding="utf-8")), path.relative_to(PROJECT_ROOT).as_posix())


def _flow_of(node: ast.AST) -> list[tuple[str, int, str, str]]:
    """("assign", line of a call, target, "") for `name = ...call...`, ("next", line, generator, target)
    for `target = next(generator)`, ("getattr", line, target, attribute) for `target = getattr(x, "attribute")`,
    ("drive", line, generator, "") for `yield from generator`, ("relay", line, item, "") for `yield item`
    (events other threads made, handed on), ("arg", line, name, "") for a call given `name`."""
    found: list[tuple[str, int, str, str]] = []
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
        target, value = node.targets[0].id, node.value
        found += [("assign", call.lineno, target, "") for call in ast.walk(value) if isinstance(call, ast.Call)]
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.args:
            first = value.args[0]
            if value.func.id == "next" and isinstance(first, ast.Name):
                found.append(("next", node.lineno, first.id, target))
            second = value.args[1] if len(value.args) > 1 else None
            if value.func.id == "getattr" and isinstance(second, ast.Constant) and isinstance(second.value, str):
                found.append(("getattr", node.lineno, target, second.value))
    elif isinstance(node, ast.YieldFrom) and isinstance(node.value, ast.Name):
        found.append(("drive", node.lineno, node.value.id, ""))
    elif isinstance(node, ast.Yield) and isinstance(node.value, ast.Name):
        found.append(("relay", node.lineno, node.value.id, ""))
    elif isinstance(node, ast.Call):
        found += [("arg", node.lineno, arg.id, "") for arg in node.args if isinstance(arg, ast.Name)]
    elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        found += [("param", node.lineno, arg.arg, "") for arg in (*node.args.posonlyargs, *node.args.args)]
    return found


def _functions_of(tree: ast.AST, relative: str) -> list[_Function]:
    """One walk that hands each call to all its enclosing functions: walking each function's own
    subtree again was a visible part of the debugger's first frame."""
    inside: dict[ast.FunctionDef | ast.AsyncFunctionDef, tuple[list, list, list]] = {}  # calls, delegations, flow

    def visit(node: ast.AST, enclosing: tuple[tuple[list, list, list], ...]) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            inside.setdefault(node, ([], [], []))[2].extend(_flow_of(node))  # its parameters are its own
            enclosing = (*enclosing, inside[node])
        else:
            for _, _, flow in enclosing:
                flow.extend(_flow_of(node))
        if isinstance(node, ast.Call) and (name := _called_name(node)):
            for calls, _, _ in enclosing:
                calls.append((name, node.lineno))
        elif isinstance(node, ast.YieldFrom):
            for _, delegations, _ in enclosing:
                delegations.append(node.lineno)
        for child in ast.iter_child_nodes(node):
            visit(child, enclosing)

    visit(tree, ())
    # In the order callers expect (ast.walk's); visit put every function node in `inside`.
    functions = [node for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]
    return [
        _Function(
            relative,
            node.name,
            node.lineno,
            node.end_lineno or node.lineno,
            tuple(sorted(inside[node][0], key=lambda c: c[1])),
            tuple(sorted(inside[node][1])),
            tuple(sorted(inside[node][2], key=lambda f: (f[1], f[0]))),
        )
        for node in functions
    ]


@lru_cache(maxsize=256)
def _scan_one(path: Path, name: str, text: str, at: int) -> list[_Function]:
    """The functions called `name` in the file, parsing only the one `def name(` found at `at`:
    its lines up to the first line indented no deeper than the def (comments aside). Anything this
    cannot read exactly (a decorator or other code right above the def and its comments, a line the
    cut leaves unparseable) is read from the whole file instead (_scan): the answer is always the same."""
    lines = text.splitlines()
    first = text.count("\n", 0, at)
    indent = lines[first][: len(lines[first]) - len(lines[first].lstrip())]
    above = first - 1
    while above >= 0 and lines[above].lstrip().startswith("#"):
        above -= 1
    if lines[first].strip().split()[0] not in ("def", "async") or (above >= 0 and lines[above].strip()):
        return [f for f in _scan(path) if f.name == name]  # e.g. a decorator: it belongs to the def
    last = first + 1
    while last < len(lines) and (
        not lines[last].strip()
        or lines[last].lstrip().startswith("#")
        or lines[last].startswith(indent + " ")
        or lines[last].startswith(indent + "\t")
    ):
        last += 1
    segment = "\n".join(line[len(indent) :] if line.startswith(indent) else "" for line in lines[first:last])
    try:
        tree = ast.parse(segment)
    except SyntaxError:
        return [f for f in _scan(path) if f.name == name]
    ast.increment_lineno(tree, first)
    return [f for f in _functions_of(tree, path.relative_to(PROJECT_ROOT).as_posix()) if f.name == name]


@lru_cache(maxsize=1)
def _package_texts() -> tuple[tuple[Path, str], ...]:
    texts = []
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        try:
            texts.append((path, path.read_text(encoding="utf-8")))
        except (OSError, UnicodeDecodeError):
            continue
    return tuple(texts)


def _functions(name: str) -> Iterator[_Function]:
    """The executor's functions called `name`, file by file. A file is parsed only when a caller gets
    that far and it defines one: parsing all of executor/ was a visible part of the debugger's first frame,
    which needs two or three names."""
    defines = re.compile(rf"\bdef\s+{re.escape(name)}\s*\(")
    for path, text in _package_texts():
        found = [match.start() for match in defines.finditer(text)] if name in text else []
        if not found:
            continue
        try:
            if len(found) == 1:  # the usual case: parse just that function (see _scan_one)
                yield from _scan_one(path, name, text, found[0])
            else:
                yield from (function for function in _scan(path) if function.name == name)
        except (OSError, SyntaxError):
            continue


def _driven_at(function: _Function, line: int) -> int:
    """Where the generator a call on `line` makes is paused: a generator kept in a name runs where it is
    driven (`yield from attempts`), and one pulled with next() hands each event on where the event
    is next passed to a call (invoke's `listener(event)`). Otherwise the call's own line."""
    flow = function.flow
    kept = next((name for what, at, name, _ in flow if what == "assign" and at == line), None)
    if kept is None:
        return line
    driven = [at for what, at, name, _ in flow if what == "drive" and name == kept and at >= line]
    if driven:
        return driven[0]
    for what, at, name, value in flow:
        if what == "next" and name == kept and at > line:
            handed = [where for kind, where, arg, _ in flow if kind == "arg" and arg == value and where > at]
            return handed[0] if handed else at
    return line


def _direct_site(function: _Function, callee: str) -> int | None:
    """A call of `callee` by its name, or through a name a getattr bound to it (`narrated_generate`)."""
    named = {target for what, _, target, attribute in function.flow if what == "getattr" and attribute == callee}
    lines = [line for name, line in function.calls if name == callee or name in named]
    return _driven_at(function, lines[0]) if lines else None


def _runtime_site(function: _Function) -> int | None:
    """The last call of a parameter or local (`attempt()`): how a function runs what it was handed."""
    local = {name for what, _, name, _ in function.flow if what in ("param", "assign")}
    lines = [line for name, line in function.calls if name in local and name != "next"]
    return _driven_at(function, lines[-1]) if lines else None


@lru_cache(maxsize=1024)
def _call_site(caller: str, callee: str) -> tuple[str, int] | None:
    """The line in `caller` where it calls (or delegates to) `callee`. Functions of that name that call
    it by name come first (several classes have a `plan`), then one that runs what it was handed."""
    functions = list(_functions(caller))
    for find in (lambda f: _direct_site(f, callee), _runtime_site):
        for function in functions:
            line = find(function)
            if line is not None:
                return function.file, line
    for function in functions:
        if len(function.delegations) == 1:  # e.g. a generator tool function's only delegation
            return function.file, function.delegations[0]
        relays = [line for what, line, _, _ in function.flow if what == "relay"]
        if len(relays) == 1:  # its callees run in worker threads: their events pass through here
            return function.file, relays[0]
    return None


def frame_locations(frames: tuple[str, ...], file: str, line: int) -> list[FrameLocation]:
    """Every frame of a recorded event, outermost first; callers' lines are found in the source."""
    locations = []
    for depth, name in enumerate(frames[:-1]):
        site = _call_site(name, frames[depth + 1])
        locations.append(FrameLocation(name, site[0] if site else None, site[1] if site else None, False))
    if frames:
        locations.append(FrameLocation(frames[-1], file, line, True))
    return locations
