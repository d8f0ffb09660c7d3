"""Words of `loopscope exercise`: the list, start, check and hint (the exercises' own texts are content)."""

MESSAGES: dict[str, tuple[str, str]] = {
    "exercise.description": (
        "Broken agents to fix: `exercise` lists them, `exercise start NAME` copies one into "
        "./loopscope-exercises/, `exercise check NAME` runs it offline and says what its trace shows is "
        "still wrong, `exercise hint NAME` gives the next hint.",
        "需要修的坏 agent：`exercise` 列出全部，`exercise start 名字` 把一个复制到 ./loopscope-exercises/，"
        "`exercise check 名字` 离线运行它并根据 trace 指出还有什么不对，`exercise hint 名字` 给出下一条提示。",
    ),
    "exercise.name_help": ("an exercise name (see `loopscope exercise`)", "练习的名字（见 `loopscope exercise`）"),
    "exercise.force_help": (
        "start over: overwrite your file in ./loopscope-exercises/",
        "从头开始：覆盖 ./loopscope-exercises/ 里你的文件",
    ),
    "exercise.name_missing": (
        "`exercise {action}` needs an exercise name; available: {names}",
        "`exercise {action}` 需要一个练习名；可选：{names}",
    ),
    "exercise.unknown": (
        "unknown exercise {name!r}; available: {names} (or `loopscope exercise`)",
        "没有名为 {name!r} 的练习；可选：{names}（或运行 `loopscope exercise`）",
    ),
    "exercise.list_hint": (
        "Start one with `loopscope exercise start NAME`.",
        "用 `loopscope exercise start 名字` 开始一个练习。",
    ),
    "exercise.file_footer": (
        "Fix build() below, then run: loopscope exercise check {name}   (stuck? loopscope exercise hint {name})",
        "修好下面的 build()，然后运行：loopscope exercise check {name}（卡住了？loopscope exercise hint {name}）",
    ),
    "exercise.exists": (
        "{path} is already there (your changes are kept); check it with `loopscope exercise check {name}`, "
        "or pass --force to start over",
        "{path} 已经存在（你的修改都还在）；用 `loopscope exercise check {name}` 检查它，或加 --force 从头开始",
    ),
    "exercise.started": ("wrote {path}", "已写入 {path}"),
    "exercise.next_steps": (
        "Edit the file, then `loopscope exercise check {name}`; `loopscope exercise hint {name}` when stuck.",
        "改好文件后运行 `loopscope exercise check {name}`；卡住时用 `loopscope exercise hint {name}`。",
    ),
    "exercise.not_started": (
        "no {path} yet; start the exercise with `loopscope exercise start {name}`",
        "还没有 {path}；先用 `loopscope exercise start {name}` 开始这个练习",
    ),
    "exercise.passed": (
        "{name}: fixed. The run ({events} events) does what the task asks.",
        "{name}：修好了。这次运行（{events} 个事件）做到了任务要求的事。",
    ),
    "exercise.failed": (
        "{name}: not yet. The run ({events} events) shows:",
        "{name}：还没好。这次运行（{events} 个事件）显示：",
    ),
    "exercise.see_trace": (
        "The run's trace: {path} (step through it with `loopscope debug {path}`)",
        "这次运行的 trace：{path}（用 `loopscope debug {path}` 单步查看）",
    ),
    "exercise.try_hint": ("Stuck? `loopscope exercise hint {name}`", "卡住了？`loopscope exercise hint {name}`"),
    "exercise.hint": ("hint {number}/{total}: {text}", "提示 {number}/{total}：{text}"),
    "exercise.last_hint": (
        "That was the last hint; `loopscope exercise start {name} --force` starts over.",
        "这是最后一条提示；`loopscope exercise start {name} --force` 可以从头开始。",
    ),
    "exercise.finding.load_failed": (
        "the file did not load or build: {error}",
        "文件没能加载或构建：{error}",
    ),
    "exercise.finding.no_build": (
        "the file has no build(model) function to run",
        "文件里没有可运行的 build(model) 函数",
    ),
    "exercise.finding.run_failed": ("the run failed: {error}", "运行失败：{error}"),
    "exercise.finding.no_end": ("the run never finished (no chain_end event)", "运行没有结束（没有 chain_end 事件）"),
    "exercise.finding.wrong_answer": (
        "the answer {output!r} does not say {expected!r}",
        "答案 {output!r} 里没有 {expected!r}",
    ),
}
