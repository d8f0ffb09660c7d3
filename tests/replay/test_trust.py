"""A trace never runs code it names: replay imports a header's agent only when the user trusts it, matched by what it resolves to."""

from __future__ import annotations

import os
import sys

import pytest

from tests.helpers.hostile_agents import (
    forget_bait,
    hostile_trace,
    imported_bait,
    markers,
    write_bait,
)
from tracer.agents.scenario_registry import UnknownAgent
from tracer.agents.trust import UntrustedAgent, agent_ref, module_file, trusted_agent
from tracer.debug.options import DebuggerOptions
from tracer.debug.session import build_session
from tracer.replay.fork import ForkError, fork_trace
from tracer.replay.verify import verify_trace

# Every way a header can name code: a file beside the trace (relative, ./, absolute), a module in the
# working directory, a module inside a package (whose __init__ is bait too), and the standard library.
HOSTILE_AGENTS = [
    "evil.py:build",
    "./evil.py:build",
    "{dir}/evil.py:build",
    "evil:build",
    "pkg.sub:build",
    "this:build",
]


@pytest.fixture
def bait(tmp_path, monkeypatch):
    """A downloaded folder: bait modules beside the traces, run from there, nothing imported yet."""
    write_bait(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))  # an import adds the working directory; undone after
    forget_bait()
    yield tmp_path
    forget_bait()


def untouched(folder):
    return markers(folder) == [] and imported_bait() == []


def trust_in_pyproject(folder, *agents):
    listed = ", ".join(f'"{agent}"' for agent in agents)
    (folder / "pyproject.toml").write_text(f"[tool.loopscope]\nagents = [{listed}]\n", encoding="utf-8")


@pytest.mark.parametrize("agent", HOSTILE_AGENTS)
def test_verify_does_not_import_the_agent_a_header_names(bait, agent):
    trace = hostile_trace(bait, "t.jsonl", agent=agent.format(dir=bait))
    result = verify_trace(trace)
    assert result.status == "untrusted" and result.exit_code == 2
    assert "--agent" in result.message and "[tool.loopscope] agents" in result.message
    assert len(result.message.splitlines()) == 1
    assert untouched(bait)


@pytest.mark.parametrize("agent", HOSTILE_AGENTS)
def test_fork_does_not_import_the_agent_a_header_names(bait, agent):
    trace = hostile_trace(bait, "t.jsonl", agent=agent.format(dir=bait))
    with pytest.raises(ForkError, match="you have not trusted"):
        fork_trace(trace, 1, reply="Final Answer: x", output=bait / "fork.jsonl")
    assert untouched(bait) and not (bait / "fork.jsonl").exists()


@pytest.mark.parametrize("agent", HOSTILE_AGENTS)
def test_a_header_with_a_scenario_too_verifies_the_scenario_and_never_touches_the_agent(bait, agent):
    """The "changed since recorded" note used to import the agent just to hash its file."""
    trace = hostile_trace(bait, "t.jsonl", scenario="rose-pricing", agent=agent.format(dir=bait))
    result = verify_trace(trace)
    assert result.status == "ok", result.message
    assert result.notes == [] and untouched(bait)


def test_a_scenario_name_shaped_like_an_agent_is_looked_up_never_imported(bait):
    trace = hostile_trace(bait, "t.jsonl", scenario="evil:build")
    result = verify_trace(trace)
    assert result.status == "unreadable" and "unknown scenario 'evil:build'" in result.message
    session = build_session(trace)  # the debugger re-executes a scenario for its real locals
    try:
        assert session.store.frames_at(3) is None
        assert "unknown scenario" in str(session.store.reenactment.problem)
    finally:
        session.store.close()
    assert untouched(bait)


@pytest.mark.parametrize("agent", HOSTILE_AGENTS)
def test_the_debugger_shows_no_real_locals_for_an_untrusted_agent_and_says_how_to_trust_it(bait, agent):
    session = build_session(hostile_trace(bait, "t.jsonl", agent=agent.format(dir=bait)))
    try:
        assert session.store.frames_at(3) is None
        problem = str(session.store.reenactment.problem)
        assert "--agent" in problem and len(problem.splitlines()) == 1
        assert len(session.store) == 23  # the recording itself is all there
    finally:
        session.store.close()
    assert untouched(bait)


def test_a_named_agent_runs_and_the_debugger_re_executes_it_for_real_locals(bait):
    trace = hostile_trace(bait, "t.jsonl", agent="evil:build")
    assert verify_trace(trace, ["evil:build"]).status == "ok"
    assert markers(bait) == ["evil.imported"]
    forget_bait()
    session = build_session(
        trace, options=DebuggerOptions(agents=("./evil.py:build",))
    )  # the same file, spelt as a path
    try:
        frames = session.store.frames_at(3)
        assert frames is not None, session.store.reenactment.problem
        call = next(frame for frame in frames if frame.function == "_call")  # the real locals of _call
        assert "name_to_tool_map" in dict(call.locals)
    finally:
        session.store.close()


def test_a_pyproject_entry_trusts_the_agent_from_a_subfolder_too(bait, monkeypatch):
    trace = hostile_trace(bait, "t.jsonl", agent="evil:build")
    trust_in_pyproject(bait, "evil:build")
    (bait / "sub").mkdir()
    assert verify_trace(trace).status == "ok" and markers(bait) == ["evil.imported"]
    forget_bait()
    (bait / "evil.imported").unlink()
    monkeypatch.chdir(bait / "sub")  # found upwards; a file entry is relative to the pyproject's folder
    trust_in_pyproject(bait, "evil.py:build")
    trace = hostile_trace(bait, "t2.jsonl", agent=f"{bait}/evil.py:build")
    assert verify_trace(trace).status == "ok" and markers(bait) == ["evil.imported"]


def test_a_trusted_module_name_does_not_trust_a_file_of_that_name_elsewhere(bait):
    elsewhere = bait / "elsewhere"
    write_bait(elsewhere)
    trust_in_pyproject(bait, "evil:build")
    trace = hostile_trace(bait, "t.jsonl", agent=f"{elsewhere}/evil.py:build")
    result = verify_trace(trace)
    assert result.status == "untrusted" and untouched(bait)
    result = verify_trace(trace, ["evil:build"])  # named on the command line: the same answer
    assert result.status == "untrusted" and "--agent evil:build is another agent" in result.message
    assert untouched(bait)


def test_the_first_pyproject_upwards_is_the_only_one_read(bait, monkeypatch):
    """A subproject's own pyproject.toml (without the entry) is where trust stops, as pytest's rootdir does."""
    trust_in_pyproject(bait, "evil:build")
    (bait / "sub").mkdir()
    (bait / "sub" / "pyproject.toml").write_text("[project]\nname = 'sub'\n", encoding="utf-8")
    monkeypatch.chdir(bait / "sub")
    with pytest.raises(UntrustedAgent, match=r"sub/pyproject\.toml"):
        trusted_agent("evil:build")
    assert untouched(bait)


@pytest.mark.parametrize(
    "content, said",
    [
        ("[tool.loopscope\n", "cannot read the trusted agents"),
        ('[tool.loopscope]\nagents = "evil:build"\n', "must be a list"),
        ("[tool.loopscope]\nagents = ['evil']\n", "'evil' is not MODULE:FUNCTION"),
        ("tool = 3\n", "must be a list"),
    ],
)
def test_a_bad_trust_list_is_one_line_naming_the_file(bait, content, said):
    (bait / "pyproject.toml").write_text(content, encoding="utf-8")
    result = verify_trace(hostile_trace(bait, "t.jsonl", agent="evil:build"))
    assert result.status == "unreadable" and said in result.message and "pyproject.toml" in result.message
    assert len(result.message.splitlines()) == 1 and untouched(bait)


def test_a_hostile_agent_name_is_shown_scrubbed_and_short_and_never_offered_to_copy(bait):
    trace = hostile_trace(bait, "t.jsonl", agent="\x1b]0;pwned\x07evil:build" + "x" * 5000)
    result = verify_trace(trace)
    assert result.status == "untrusted" and "\x1b" not in result.message and "\x07" not in result.message
    assert len(result.message) < 600 and "--agent MODULE:FUNCTION" in result.message


def test_finding_a_dotted_module_runs_none_of_its_packages(bait):
    assert module_file("pkg.sub") == (bait / "pkg" / "sub.py").resolve()
    assert module_file("pkg") == (bait / "pkg" / "__init__.py").resolve()
    assert module_file("no_such_module_here") is None
    assert untouched(bait)


def test_an_agent_is_the_same_by_module_or_by_file_and_function(bait):
    by_module, by_file = agent_ref("evil:build"), agent_ref("./evil.py:build")
    assert by_module.same_agent(by_file) and by_file.same_agent(by_module)
    assert not by_module.same_agent(agent_ref("evil:other"))
    assert not by_module.same_agent(agent_ref("/elsewhere/evil.py:build"))
    assert agent_ref("../evil:build") is None and agent_ref("evil") is None and agent_ref("evil:1x") is None
    assert untouched(bait)


def test_a_trace_that_names_no_agent_is_rebuilt_with_the_one_named(bait):
    trace = hostile_trace(bait, "t.jsonl")
    assert verify_trace(trace).status == "unreadable"
    assert verify_trace(trace, ["evil:build"]).status == "ok"
    with pytest.raises(UnknownAgent, match="give one --agent, not several"):
        trusted_agent(None, ["evil:build", "pkg.sub:build"])


@pytest.mark.parametrize(
    "body, said",
    [
        (
            "def build(model):\n    raise RuntimeError('no florist today')\n",
            "build(model) raised RuntimeError: no florist today",
        ),
        ("def build(model):\n    return 42\n", "build(model) returned int, not an AgentExecutor"),
    ],
)
def test_a_build_that_raises_or_returns_no_executor_is_one_line(bait, body, said):
    (bait / "broken.py").write_text(body, encoding="utf-8")
    sys.modules.pop("broken", None)
    result = verify_trace(hostile_trace(bait, "t.jsonl", agent="broken:build"), ["broken:build"])
    sys.modules.pop("broken", None)
    assert result.status == "unreadable" and said in result.message
    assert len(result.message.splitlines()) == 1


def test_a_module_beside_the_trace_never_stands_in_for_the_one_the_pyproject_trusts(bait, monkeypatch):
    """The attack: p/pyproject.toml trusts evil:build (p/evil.py); p/sub/evil.py is a look-alike beside the
    trace, and verify runs from p/sub. What runs is the file the pyproject's folder holds."""
    trust_in_pyproject(bait, "evil:build")
    sub = bait / "sub"
    write_bait(sub)
    monkeypatch.chdir(sub)
    sys.path.insert(0, "")  # as `python -m` puts the working directory first
    trace = hostile_trace(sub, "t.jsonl", agent="evil:build")
    result = verify_trace(trace)
    assert result.status == "ok", result.message
    assert markers(bait) == ["evil.imported"]  # bait/evil.py, not sub/evil.py
    assert agent_ref("evil:build", bait).file == (bait / "evil.py").resolve()


def test_a_look_alike_imported_earlier_is_not_reused_for_the_trusted_agent(bait, monkeypatch):
    trust_in_pyproject(bait, "evil:build")
    sub = bait / "sub"
    write_bait(sub)
    monkeypatch.chdir(sub)
    sys.path.insert(0, str(sub))
    __import__("evil")  # the look-alike, already in sys.modules (its marker written by this test)
    (sub / "evil.imported").unlink()
    result = verify_trace(hostile_trace(sub, "t.jsonl", agent="evil:build"))
    assert result.status == "ok", result.message
    assert markers(bait) == ["evil.imported"] and sys.modules["evil"].__file__ == str(bait / "evil.py")


def test_a_pyproject_module_found_only_beside_the_trace_is_not_run(bait, monkeypatch):
    """The pyproject's folder has no such module: the working directory's is not a fallback."""
    (bait / "pyproject.toml").write_text('[tool.loopscope]\nagents = ["lookalike:build"]\n', encoding="utf-8")
    sub = bait / "sub"
    sub.mkdir()
    (sub / "lookalike.py").write_text((bait / "evil.py").read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.chdir(sub)
    sys.modules.pop("lookalike", None)
    result = verify_trace(hostile_trace(sub, "t.jsonl", agent="lookalike:build"))
    sys.modules.pop("lookalike", None)
    assert result.status == "unreadable" and "no module named 'lookalike'" in result.message
    assert markers(bait) == []


def _owned_by_someone_else(path, monkeypatch):
    if os.getuid() == 0:
        os.chown(path, 65534, -1)
    else:  # we cannot give the file away: become someone else instead
        monkeypatch.setattr(os, "getuid", lambda: os.stat(path).st_uid + 4242)


@pytest.mark.parametrize(
    "make_unsafe, said",
    [
        (lambda folder, mp: (folder / "pyproject.toml").chmod(0o646), "it is writable by every user"),
        (lambda folder, mp: folder.chmod(0o1777), "its folder is writable by every user"),
        (lambda folder, mp: _owned_by_someone_else(folder / "pyproject.toml", mp), "it belongs to another user"),
    ],
)
def test_a_pyproject_others_can_write_or_own_trusts_nothing(bait, monkeypatch, make_unsafe, said):
    """The attack: a pyproject.toml left in a shared folder (/tmp) trusting code for everyone below it."""
    trust_in_pyproject(bait, "evil:build")
    make_unsafe(bait, monkeypatch)
    try:
        result = verify_trace(hostile_trace(bait, "t.jsonl", agent="evil:build"))
    finally:
        bait.chmod(0o700)
    assert result.status == "untrusted" and untouched(bait)
    assert f"pyproject.toml was ignored: {said}" in result.message
    assert len(result.message.splitlines()) == 1


def test_a_look_alike_name_is_shown_escaped_with_a_warning_and_never_offered(bait):
    """The attack: `--agent ｍｙ_agent:build` in fullwidth letters, offered to copy as if it were the real name."""
    result = verify_trace(hostile_trace(bait, "t.jsonl", agent="ｍｙ_agent:build"))
    assert result.status == "untrusted"
    assert "ｍ" not in result.message and "\\uff4d\\uff59_agent:build" in result.message
    assert "not plain ASCII" in result.message and "--agent MODULE:FUNCTION" in result.message
    plain = verify_trace(hostile_trace(bait, "t2.jsonl", agent="my_agent:build"))
    assert "--agent my_agent:build" in plain.message and "ASCII" not in plain.message


@pytest.mark.slow  # the verify command in a process of its own
def test_the_verify_command_run_beside_a_look_alike_runs_the_trusted_file(bait):
    """The attack as typed: `cd p/sub && python -m tracer.cli verify t.jsonl`, where `python -m` puts the
    working directory (holding a look-alike my_agent.py) first on sys.path."""
    import subprocess

    trust_in_pyproject(bait, "evil:build")
    sub = bait / "sub"
    write_bait(sub)
    hostile_trace(sub, "t.jsonl", agent="evil:build")
    run = subprocess.run(
        [sys.executable, "-m", "tracer.cli", "verify", "t.jsonl"], cwd=sub, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert markers(bait) == ["evil.imported"]  # bait/evil.py ran; sub/evil.py did not
