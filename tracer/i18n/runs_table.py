"""`loopscope runs` in a terminal: the table's column titles, its status line, its boxes and its help."""

MESSAGES: dict[str, tuple[str, str]] = {
    # Column titles by column key (tracer/runs/columns.py). The cells (outcomes, models) stay as they
    # are: they are what --where and F compare with.
    "runs_table.column.path": ("path", "路径"),
    "runs_table.column.name": ("name", "名称"),
    "runs_table.column.outcome": ("outcome", "结果"),
    "runs_table.column.iterations": ("iter", "轮数"),
    "runs_table.column.model_calls": ("llm", "模型调用"),
    "runs_table.column.tool_calls": ("tools", "工具调用"),
    "runs_table.column.errors": ("errors", "错误"),
    "runs_table.column.tokens": ("tokens", "token 数"),
    "runs_table.column.cost": ("cost", "花费"),
    "runs_table.column.duration": ("time", "用时"),
    "runs_table.column.model": ("model", "模型"),
    "runs_table.column.recorded": ("recorded", "录制于"),
    "runs_table.column.detail": ("note", "说明"),
    # The titles of `loopscope runs --by tool|model` (printed by tracer/cli/runs.py), by their English word.
    "runs_table.title.tool": ("tool", "工具"),
    "runs_table.title.calls": ("calls", "调用次数"),
    "runs_table.title.errors": ("errors", "错误"),
    "runs_table.title.retries": ("retries", "重试"),
    "runs_table.title.runs": ("runs", "运行数"),
    "runs_table.title.model": ("model", "模型"),
    "runs_table.title.tokens": ("tokens", "token 数"),
    "runs_table.title.cost": ("cost", "花费"),
    "runs_table.title.failures": ("failures", "失败"),
    "runs_table.title.fallbacks": ("fallbacks", "回退"),
    # The status line.
    "runs_table.runs": ("{count} runs", "{count} 次运行"),
    "runs_table.shown": ("{count} shown", "显示 {count} 次"),
    "runs_table.filter": ("filter: {condition} (esc clears)", "筛选：{condition}（esc 清除）"),
    "runs_table.sorted_by": ("sorted by {column} {arrow}", "排序 {column} {arrow}"),
    "runs_table.marked": ("{count} marked", "已标记 {count} 次"),
    "runs_table.no_match": ("no run matches", "没有匹配的运行"),
    "runs_table.cannot_open": ("cannot open it: {problem}", "无法打开：{problem}"),
    "runs_table.cannot_diff": ("cannot diff: {problem}", "无法对比：{problem}"),
    "runs_table.same": ("the runs take the same transitions", "两次运行的转移完全相同"),
    "runs_table.parted": ("they part at transition {at}", "两次运行在第 {at} 个转移处分开"),
    "runs_table.mark_two": (
        "mark two runs with space, then D (or mark one and put the cursor on another)",
        "先用空格标记两次运行，再按 D（或标记一次，把光标移到另一次上）",
    ),
    "runs_table.nothing_to_search": ("nothing to search for: / first", "没有要搜索的内容：先按 /"),
    "runs_table.found": ("found {text} at row {row}", "在第 {row} 行找到 {text}"),
    "runs_table.not_found": ("no row has {text}", "没有一行包含 {text}"),
    "runs_table.filtering": ("filtering…", "筛选中…"),
    "runs_table.diff_title": ("A = {a} · B = {b}", "A = {a} · B = {b}"),
    # A fork: its name cell's mark (short: the column is capped), and the line under the table.
    "runs_table.fork_mark": ("⑂ fork at {at}", "⑂ 分叉于 {at}"),
    "runs_table.fork_mark_short": ("⑂{at}", "⑂{at}"),
    "runs_table.fork_of": ("⑂ fork of {parent} at event {at}", "⑂ 从 {parent} 的第 {at} 个事件分叉"),
    "runs_table.fork_of_somewhere": ("⑂ fork of {parent}", "⑂ 从 {parent} 分叉"),
    # t: regression tests for the marked runs (tracer/runs/regression_tests.py writes them).
    "runs_table.tests_writing": ("writing {count} regression test(s)…", "正在写 {count} 个回归测试…"),
    "runs_table.tests_wrote": (
        "wrote {files} in {folder}; run them with: pytest {folder}",
        "已在 {folder} 写入 {files}；运行它们：pytest {folder}",
    ),
    "runs_table.tests_refused": ("no test for {run}: {why}", "没有为 {run} 写测试：{why}"),
    "runs_table.tests_more_refused": ("{count} more not written", "另有 {count} 个没有写"),
    # Its boxes.
    "runs_table.search_title": ("Search the runs for", "在运行列表中搜索"),
    "runs_table.search_hint": (
        "text in any cell (path, name, outcome, model, note); n / N: next / previous",
        "任一单元格里的文字（路径、名称、结果、模型、说明）；n / N：下一个 / 上一个",
    ),
    "runs_table.filter_title": ("Show only the runs where", "只显示满足条件的运行"),
    "runs_table.filter_hint": (
        'e.g. outcome == "error", cost > 0.01, kind == "tool_error", tool == "Search"; typing replaces '
        "the filter, enter on an empty field shows every run",
        '例如 outcome == "error"、cost > 0.01、kind == "tool_error"、tool == "Search"；直接输入即替换当前筛选，'
        "留空后按回车显示全部运行",
    ),
    # Its help (?).
    "runs_table.help_title": ("loopscope runs — keys", "loopscope runs — 按键"),
    "runs_table.help_keys": ("The runs table", "运行列表"),
    "runs_table.help_filter": (
        "F takes a condition, as breakpoints do (== != < <= > >= in, and or not, quoted text):\n"
        "  run fields: {fields}\n"
        "  outcomes: {outcomes}\n"
        "  event fields: kind, tool, iteration, state, and each event's own (error_type, observation …);\n"
        "  a run is kept when one of its events makes the whole condition true:\n"
        '    outcome == "error"   cost > 0.01   kind == "tool_error"   tool == "Search" and iteration >= 3\n'
        "  event.model, event.duration: an event's own field where a run field has the same name",
        "F 接受一个条件，写法与断点条件相同（== != < <= > >= in，and or not，文本加引号）：\n"
        "  运行字段：{fields}\n"
        "  结果：{outcomes}\n"
        "  事件字段：kind、tool、iteration、state，以及各事件自己的字段（error_type、observation …）；\n"
        "  只要某次运行有一个事件让整个条件成立，这次运行就保留：\n"
        '    outcome == "error"   cost > 0.01   kind == "tool_error"   tool == "Search" and iteration >= 3\n'
        "  event.model、event.duration：与运行字段同名时，指事件自己的字段",
    ),
}
