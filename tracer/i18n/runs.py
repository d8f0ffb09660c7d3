"""Words of `loopscope runs`: the table's column titles, the --by tables, the charts and the closing counts."""

# A column's key is the run field it sorts by (tracer/runs/run_fields.py); its title is short, a table heads it.
_COLUMNS: dict[str, tuple[str, str]] = {
    "path": ("path", "路径"),
    "name": ("name", "名称"),
    "outcome": ("outcome", "结果"),
    "iterations": ("iter", "轮数"),
    "model_calls": ("llm", "模型调用"),
    "tool_calls": ("tools", "工具调用"),
    "errors": ("errors", "错误"),
    "tokens": ("tokens", "token 数"),
    "cost": ("cost", "花费"),
    "duration": ("time", "用时"),
    "model": ("model", "模型"),
    "recorded": ("recorded", "录制于"),
    "detail": ("note", "说明"),
}

# The --by tool and --by model tables: one row per tool or model, added up over the selected runs.
_STATS: dict[str, tuple[str, str]] = {
    "tool": ("tool", "工具"),
    "model": ("model", "模型"),
    "calls": ("calls", "调用次数"),
    "errors": ("errors", "错误"),
    "retries": ("retries", "重试"),
    "runs": ("runs", "运行数"),
    "p50": ("p50", "p50"),  # percentiles keep their usual names in Chinese too
    "p95": ("p95", "p95"),
    "tokens": ("tokens", "token 数"),
    "cost": ("cost", "花费"),
    "failures": ("failures", "失败"),
    "fallbacks": ("fallbacks", "回退"),
}

MESSAGES: dict[str, tuple[str, str]] = {
    **{f"runs.column.{key}": words for key, words in _COLUMNS.items()},
    **{f"runs.stats.{key}": words for key, words in _STATS.items()},
    "runs.chart.none": ("no runs to chart", "没有可画图的运行"),
    "runs.chart.latency": ("latency per tool call (seconds)", "每次工具调用的延迟（秒）"),
    "runs.chart.cost": ("cost per run ($), by when it ran", "每次运行的花费（美元），按运行时间排列"),
    "runs.chart.tokens": ("tokens per run, by when it ran", "每次运行的 token 数，按运行时间排列"),
    "runs.chart.failures": (
        "failed attempts per model (retries and fallbacks)",
        "每个模型失败的尝试次数（重试和回退）",
    ),
    # The line under the table (to stderr): how many runs, and where their rows came from.
    "runs.summary.runs": ("{runs} run(s)", "{runs} 次运行"),
    "runs.summary.shown": ("{runs} run(s), {shown} shown", "{runs} 次运行，显示 {shown} 次"),
    "runs.summary.unreadable": ("{count} unreadable", "{count} 个无法读取"),
    "runs.summary.json_passed": (
        "{count} .json file(s) not read (--imports reads other tools' exports)",
        "{count} 个 .json 文件没有读（加 --imports 读取其他工具的导出文件）",
    ),
    "runs.summary.foreign": (
        "{count} other tools' export(s) passed over (--imports reads them)",
        "跳过了 {count} 个其他工具的导出文件（加 --imports 读取它们）",
    ),
    "runs.summary.sources": (
        "{cached} from the catalogue, {read} read",
        "{cached} 次来自目录缓存，{read} 次重新读取",
    ),
    "runs.summary.over": ("over {runs} run(s)", "共 {runs} 次运行"),
    "runs.progress": ("reading runs", "正在读取运行"),
    "runs.wrote_charts": ("wrote the charts of {runs} run(s) to {path}", "已把 {runs} 次运行的图表写入 {path}"),
    # What the user got wrong, said before anything is read.
    "runs.error.sort": (
        "--sort {given!r}: not a run field; use one of {fields}, or score.NAME",
        "--sort {given!r}：不是运行字段；请用其中之一：{fields}，或 score.名字",
    ),
    "runs.error.where": ("--where {given!r}: {problem}", "--where {given!r}：{problem}"),
    # --export-otlp: the selected runs' spans to a collector
    "runs.export.skipped": ("loopscope: skipped {path}: {problem}", "loopscope：跳过了 {path}：{problem}"),
    "runs.export.sent": (
        "sent {spans} spans of {runs} run(s) to {url}",
        "已把 {runs} 次运行的 {spans} 个 span 发往 {url}",
    ),
    "runs.export.unread": ("; {count} unreadable run(s) not sent", "；{count} 次无法读取的运行没有发送"),
    "runs.export.refused": (
        "loopscope: {problem}; {runs} run(s) were sent before it; the traces are unchanged",
        "loopscope：{problem}；在此之前已发送 {runs} 次运行；trace 文件没有改动",
    ),
    # A run written as a regression test (tracer/runs/regression_tests.py: `tests add`, and t in the table).
    "runs.tests.unreadable": ("{problem}", "{problem}"),
    "runs.tests.no_agent": (
        "{path}: its header names no agent; give the one it replays through with --agent MODULE:ATTR",
        "{path}：文件头没有写明 agent；用 --agent MODULE:ATTR 指定它要重放所用的 agent",
    ),
    "runs.tests.untrusted": (
        "its agent {agent} is not one you trust, so no test runs it: {why}",
        "它的 agent {agent} 不在你信任的范围内，所以不写会运行它的测试：{why}",
    ),
    "runs.tests.exists": (
        "{path} exists; pass --force to replace it, or rename the trace",
        "{path} 已存在；加 --force 替换它，或给 trace 改名",
    ),
    "runs.tests.cannot_write": ("cannot write the test: {problem}", "无法写入测试：{problem}"),
    "runs.tests.wrote": ("wrote {path} (replays {trace} through {agent})", "已写入 {path}（用 {agent} 重放 {trace}）"),
    "runs.tests.run_them": ("run them with: pytest {folder}", "运行它们：pytest {folder}"),
}
