"""Words of the offline HTML pages (export --html, diff --html, runs --html): headings, totals, the legend."""

MESSAGES: dict[str, tuple[str, str]] = {
    # One trace's page: its totals line
    "html.total.events": ("events", "事件"),
    "html.total.iterations": ("iterations", "轮数"),
    "html.total.model_calls": ("model calls", "模型调用"),
    "html.total.tool_calls": ("tool calls", "工具调用"),
    "html.total.errors": ("errors and retries", "错误与重试"),
    "html.total.time": ("time", "用时"),
    "html.total.tokens": ("tokens", "token"),
    "html.total.cost": ("cost", "花费"),
    "html.total.not_counted": ("not counted", "未统计"),
    "html.total.token_split": (
        "{prompt} prompt + {completion} completion",
        "提示词 {prompt} + 补全 {completion}",
    ),
    "html.total.estimated": (" (estimated)", "（估算）"),
    "html.timeline": ("Timeline", "时间线"),
    "html.timeline.note": (
        "Each event opens into its detail: the prompt and reply as recorded (secrets redacted), tokens and cost at "
        "each model call. (The details are drawn by the page's own script: with scripts off, the lines are all "
        "there is.)",
        "每个事件都能展开看细节：录制下来的提示词和回复（机密已遮盖），以及每次模型调用的 token 和花费。"
        "（细节由页面自己的脚本绘制：关掉脚本时，只有这些行。）",
    ),
    "html.left_out": (
        "… {count} events left out here (open the trace in the debugger for all).",
        "…… 这里省略了 {count} 个事件（在调试器里打开这个 trace 可以看到全部）。",
    ),
    "html.unreadable": ("unreadable", "无法读取"),
    "html.unreadable.line": ("line of event {seq}: {problem}", "事件 {seq} 的那一行：{problem}"),
    "html.unreadable.not_object": ("not a JSON object", "不是 JSON 对象"),
    # The waterfall section.
    "html.waterfall": ("Waterfall", "瀑布图"),
    "html.waterfall.empty": ("No model or tool calls in this run.", "这次运行没有模型或工具调用。"),
    "html.waterfall.zoom_in": ("zoom in", "放大"),
    "html.waterfall.zoom_out": ("zoom out", "缩小"),
    "html.waterfall.whole": ("whole run", "整个运行"),
    "html.waterfall.summary": (
        "{bars} bars in {lanes} lanes, {start} to {end}; a bar opens its event",
        "{lanes} 条泳道，{bars} 个条，从 {start} 到 {end}；点一个条打开它的事件",
    ),
    "html.waterfall.added_up": ("{count} {kind} bars from event {first}", "从事件 {first} 起的 {count} 个{kind}条"),
    "html.legend.model": ("model", "模型"),
    "html.legend.summary": ("summary", "摘要"),
    "html.legend.tool": ("tool", "工具"),
    "html.legend.retry": ("retry", "重试"),
    "html.legend.rate_limit": ("rate limit", "限流等待"),
    "html.legend.fallback": ("fallback", "回退"),
    "html.legend.trim": ("trim", "裁剪"),
    "html.legend.error": ("error", "错误"),
    "html.legend.failed": ("outlined red: failed", "红色描边：失败"),
    # an event's detail
    "html.detail.cost": ("tokens and cost", "token 与花费"),
    "html.detail.same_prompt": ("this prompt is the prompt of ", "这段提示词与下面这个事件的相同："),
    "html.detail.earlier_messages": ("the {count} messages of ", "前 {count} 条消息见 "),
    # two traces side by side
    "html.diff.same": ("the runs take the same transitions", "两次运行的转移完全相同"),
    "html.diff.part": ("the runs part (first row marked ≠)", "两次运行分开了（第一处标着 ≠）"),
    # runs --html
    "html.runs.count": ("{count} runs", "{count} 次运行"),
    "html.runs.latency": ("Latency per tool call", "每次工具调用的延迟"),
    "html.runs.cost": ("Cost per run, by when it ran", "每次运行的花费，按运行时间排列"),
    "html.runs.tokens": ("Tokens per run, by when it ran", "每次运行的 token 数，按运行时间排列"),
    "html.runs.failures": (
        "Failed attempts per model (retries and fallbacks away)",
        "每个模型失败的尝试次数（重试，以及回退到别的模型）",
    ),
    "html.runs.table": ("Runs", "运行"),
    "html.runs.label.latency": ("latency per tool call", "每次工具调用的延迟"),
    "html.runs.label.cost": ("cost per run over time", "每次运行的花费随时间的变化"),
    "html.runs.label.tokens": ("tokens per run over time", "每次运行的 token 数随时间的变化"),
    "html.runs.label.failures": ("failures per model", "每个模型的失败次数"),
    "html.runs.box": (
        "{tool}: {calls} calls, median {median} s, max {most} s",
        "{tool}：{calls} 次调用，中位数 {median} s，最大 {most} s",
    ),
    "html.runs.bar": (
        "{model}: {failures} failed attempts, {fallbacks} fallbacks away, {calls} calls answered",
        "{model}：{failures} 次失败的尝试，{fallbacks} 次回退到别的模型，{calls} 次调用得到回答",
    ),
    "html.runs.column.name": ("name", "名称"),
    "html.runs.column.outcome": ("outcome", "结果"),
    "html.runs.column.iterations": ("iterations", "轮数"),
    "html.runs.column.tokens": ("tokens", "token 数"),
    "html.runs.column.cost": ("cost", "花费"),
    "html.runs.column.time": ("time", "用时"),
    "html.runs.column.path": ("path", "路径"),
}
