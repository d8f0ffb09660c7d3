"""The CLI, the narrator and runs say their words through the catalogue: no Chinese in their code, none translated after."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tracer.cli import main
from tracer.i18n import say

ROOT = Path(__file__).resolve().parents[2]
CJK = re.compile(r"[\u4e00-\u9fff]")
# cjk_wrap's tests of line breaking need the characters themselves; they are not words for a person.
MAY_HOLD_CHINESE = {ROOT / "tracer/report/text/cjk_wrap.py"}


@pytest.mark.parametrize("area", ["tracer/cli", "tracer/report", "tracer/runs"])
def test_no_module_of_the_cli_the_narrator_or_runs_writes_chinese_itself(area):
    holding = [
        str(path.relative_to(ROOT))
        for path in sorted((ROOT / area).rglob("*.py"))
        if path not in MAY_HOLD_CHINESE and CJK.search(path.read_text("utf-8"))
    ]
    assert holding == [], "Chinese belongs in tracer/i18n/, asked for by key"


def test_printing_runs_in_chinese_loads_no_part_of_the_debugger(tmp_path):
    # The table's Chinese titles came from the debugger's English-matching table (tracer/tui/chrome.py).
    code = (
        "import sys; from tracer.cli import main; "
        "code = main(['runs', 'fixtures/rose_pricing.jsonl', '--print', '--lang', 'zh', '--catalogue', sys.argv[1]]); "
        "assert code == 0, code; "
        "print(sorted(m for m in sys.modules if m.startswith('tracer.tui')))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path / "runs.sqlite")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    *table, loaded = done.stdout.splitlines()
    assert loaded == "[]"
    assert table[0].split()[:3] == ["路径", "名称", "结果"]


def test_the_runs_summary_and_the_by_tables_speak_the_chosen_language(tmp_path, capsys):
    catalogue = str(tmp_path / "runs.sqlite")
    fixture = str(ROOT / "fixtures/rose_pricing.jsonl")
    assert main(["runs", fixture, "--by", "tool", "--lang", "zh", "--catalogue", catalogue]) == 0
    out, err = capsys.readouterr()
    assert out.split()[:3] == ["工具", "调用次数", "错误"]
    assert err.strip() == say("runs.summary.over", "zh", runs="1") == "共 1 次运行"
    assert main(["runs", fixture, "--print", "--lang", "en", "--catalogue", catalogue]) == 0
    assert capsys.readouterr().err.strip() == "1 run(s) · 1 from the catalogue, 0 read"


@pytest.mark.parametrize(
    ("argv", "english", "chinese"),
    [
        (["runs", "--sort", "speed"], "--sort 'speed': not a run field", "--sort 'speed'：不是运行字段"),
        (["tutorial", "nope"], "unknown tutorial 'nope'", "没有叫 'nope' 的教程"),
        (["tutorial", "parse-error", "--part", "9"], "has no part 9; its parts: 1 = ", "没有第 9 部分"),
    ],
)
def test_a_usage_error_is_one_line_in_the_chosen_language(capsys, argv, english, chinese):
    assert main([*argv, "--lang", "en"]) == 2
    assert english in capsys.readouterr().err
    assert main([*argv, "--lang", "zh"]) == 2
    err = capsys.readouterr().err
    assert chinese in err and len(err.splitlines()) == 1


def test_the_tutorial_list_counts_parts_in_chinese(capsys):
    assert main(["tutorial", "list", "--lang", "zh"]) == 0
    out = capsys.readouterr().out
    assert "（2 个部分）" in out and "parts)" not in out
    assert "用 `loopscope tutorial 名字` 打开一个教程" in out


def in_locale(monkeypatch, lang: str) -> None:
    for variable in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "zh_CN.UTF-8" if lang == "zh" else "en_US.UTF-8")


@pytest.mark.parametrize(
    ("argv", "english", "chinese"),
    [
        (["run"], "name what to run: a scenario", "请指明要运行什么：一个场景"),
        (
            ["run", "rose-pricing", "--input", "hi"],
            "scenario 'rose-pricing' asks its own question",
            "场景 'rose-pricing' 自带问题",
        ),
        (["debug"], "give a trace file or --live SCENARIO", "请给一个 trace 文件或 --live SCENARIO"),
        (
            ["debug", "t.jsonl", "--record", "o.jsonl"],
            "--record only applies to --live runs",
            "--record 只用于 --live 运行",
        ),
        (
            ["tutorial", "list", "--lang", "fr"],
            "unknown language 'fr'; available: en, zh",
            "不认识的语言 'fr'；可选：en, zh",
        ),
        (
            ["debug", str(ROOT / "fixtures/rose_pricing.jsonl"), "--trace-id", "x", "--print"],
            "--trace-id picks a trace of another tool's file; this is a loopscope trace",
            "这个文件本身就是 loopscope trace",
        ),
        (
            ["export", str(ROOT / "fixtures/rose_pricing.jsonl")],
            "choose a format: --mermaid, --format otlp-json, or --otlp URL",
            "请选择一种格式：--mermaid、--format otlp-json",
        ),
        (
            [
                "fork",
                str(ROOT / "fixtures/rose_pricing.jsonl"),
                "--at",
                "3",
                "--reply",
                "r",
                "--stop-at-change",
                "--model",
                "x:y",
            ],
            "--stop-at-change and --model each decide",
            "--stop-at-change 和 --model 都决定由谁回答改过的提示词",
        ),
        (
            ["serve", "--tutorial", "rose-pricing", "--port", "70000"],
            "--port 70000: choose a port",
            "请选 1 到 65535 之间的端口",
        ),
        (["import", "/nonexistent/run.json", "-o", "x.jsonl"], "/nonexistent/run.json: no such file", "：没有这个文件"),
    ],
)
def test_a_command_without_lang_says_its_usage_error_in_the_locales_language(
    monkeypatch, capsys, argv, english, chinese
):
    in_locale(monkeypatch, "en")
    assert main(argv) == 2
    assert english in capsys.readouterr().err
    in_locale(monkeypatch, "zh")
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert chinese in err and len(err.splitlines()) == 1


def test_debugs_lang_chooses_its_usage_errors_language_over_the_locale(monkeypatch, capsys):
    in_locale(monkeypatch, "zh")
    assert main(["debug", "--lang", "en"]) == 2
    assert "give a trace file or --live SCENARIO" in capsys.readouterr().err


def test_run_narrates_and_tallies_in_the_language_asked(capsys):
    assert main(["run", "rose-pricing", "--lang", "zh"]) == 0
    out = capsys.readouterr().out
    assert "── 第 1 轮 · plan() 去问 " in out and "\n账目\n" in out and "离线重放了 rose_pricing.jsonl，用时 " in out
    assert "> Finished chain." in out  # LangChain's words, as LangChain prints them
    assert "Ledger" not in out and "replayed" not in out and "round 1" not in out


def test_record_reports_in_the_locales_language(monkeypatch, capsys, tmp_path):
    in_locale(monkeypatch, "zh")
    out_path = tmp_path / "t.jsonl"
    assert main(["record", "tool-error-unhandled", "-o", str(out_path)]) == 0
    out = capsys.readouterr().out
    assert f"把 tool-error-unhandled 的 7 个事件录制到了 {out_path}" in out
    assert "这次运行以 ToolError 结束，正如这个场景的本意" in out


def test_runs_export_says_what_was_sent_before_a_refusal_in_the_language_asked(capsys, tmp_path):
    argv = ["runs", str(ROOT / "fixtures/rose_pricing.jsonl"), "--catalogue", str(tmp_path / "c.sqlite")]
    assert main([*argv, "--export-otlp", "http://127.0.0.1:9", "--lang", "zh"]) == 1
    err = capsys.readouterr().err
    assert "在此之前已发送 0 次运行；trace 文件没有改动" in err and "were sent" not in err
