"""Words of the predict questions in a tutorial walk: the question's heading, the answer, why."""

MESSAGES: dict[str, tuple[str, str]] = {
    "predict.heading": ("predict {number}/{total} · before event {seq}", "预测 {number}/{total} · 事件 {seq} 之前"),
    "predict.answer": ("answer: {number}. {choice}", "答案：{number}. {choice}"),
    "predict.why": ("why:", "为什么："),
    "predict.flag_help": (
        "ask what comes next at chosen stops (with --print: each question, its choices, then the answer and why)",
        "在选定的停靠点先问接下来会发生什么（配合 --print：打印每个问题、选项，再给出答案和原因）",
    ),
    "predict.printed_instead": (
        "the debugger does not ask predict questions yet; printing the walk with its questions instead",
        "调试器暂时还不会提问；改为打印带问题的讲解",
    ),
}
