"""Words of the predict questions: the printed walk's heading, answer and why, and the debugger's quiz."""

MESSAGES: dict[str, tuple[str, str]] = {
    "predict.heading": ("predict {number}/{total} · before event {seq}", "预测 {number}/{total} · 事件 {seq} 之前"),
    "predict.answer": ("answer: {number}. {choice}", "答案：{number}. {choice}"),
    "predict.why": ("why:", "为什么："),
    "predict.flag_help": (
        "before chosen events, ask what comes next (in the debugger, answer with a number key; "
        "with --print, each question, its choices, then the answer and why)",
        "在选定的事件之前先问接下来会发生什么（在调试器里按数字键作答；"
        "配合 --print：打印每个问题、选项，再给出答案和原因）",
    ),
    # -- the debugger's quiz --------------------------------------------------------------------
    "predict.box_title": ("Predict {number}/{total} · what comes next?", "预测 {number}/{total} · 接下来会怎样？"),
    "predict.box_keys": (
        "1–{last} answer · esc not now (event {seq} stays hidden) · p turns predict off",
        "1–{last} 作答 · esc 先不答（事件 {seq} 继续隐藏）· p 关闭预测",
    ),
    # The status line's words: short, as its place and the event come first on an 80-column line.
    "predict.asking": (
        "predict {number}/{total}: answer 1–{last} to see event {seq}",
        "预测 {number}/{total}：按 1–{last} 作答后显示事件 {seq}",
    ),
    "predict.not_now": (
        "not answered: event {seq} stays hidden (p: predict off)",
        "还没作答：事件 {seq} 继续隐藏（p 关闭预测）",
    ),
    "predict.right": ("✓ right: {number}. {choice}", "✓ 答对了：{number}. {choice}"),
    "predict.wrong": (
        "✗ you said {said}; the answer is {number}. {choice}",
        "✗ 你选了 {said}；答案是 {number}. {choice}",
    ),
    "predict.verdict_title": ("predict {numbers}/{total}", "预测 {numbers}/{total}"),
    # the tutorial's score so far (every part, kept in the learner's file): short, to fit 80 columns
    "predict.answered": ("predict: {right}/{asked} right", "预测：答对 {right}/{asked}"),
    "predict.unsaved": ("the score was not saved: {problem}", "得分没能保存：{problem}"),
    "predict.on": ("predict on · questions ahead: {count}", "预测已开启 · 前面的问题：{count}"),
    "predict.on_done": ("predict on: all answered", "预测已开启：都答过了"),
    "predict.off": ("predict off: no questions", "预测已关闭：不再提问"),
    "predict.misfit": ("no predict questions here: {problem}", "这里没有预测问题：{problem}"),
    "predict.none": ("this part has no predict questions", "这一部分没有预测问题"),
    "predict.not_tutorial": (
        "predict questions come with tutorials (T opens one)",
        "预测问题只在教程里有（按 T 打开教程）",
    ),
    "predict.picker_score": ("predict {right}/{asked} right", "预测答对 {right}/{asked}"),
}
