"""Words of `loopscope tutorial`: the printed walk's labels, the list of tutorials, and what went wrong."""

MESSAGES: dict[str, tuple[str, str]] = {
    "tutorial.stop": ("stop {number}/{total}", "停靠点 {number}/{total}"),
    "tutorial.prompt_gained": (
        "what the prompt gained since the last plan():",
        "和上一次 plan() 相比，提示词新增的内容：",
    ),
    "tutorial.reply": ("the reply, exactly as it came back:", "模型返回的原文："),
    "tutorial.list_hint": (
        "Open one with `loopscope tutorial NAME` (add --print for plain text).",
        "用 `loopscope tutorial 名字` 打开一个教程（加 --print 输出纯文本）。",
    ),
    # In the list, after the title of a tutorial that has several parts.
    "tutorial.list_parts": ("  ({count} parts)", "（{count} 个部分）"),
    "tutorial.part": ("part {number}/{total}: {label}", "第 {number}/{total} 部分: {label}"),
    "tutorial.error.unknown": (
        "unknown tutorial {name!r}; available: {names} (or `loopscope tutorial list`)",
        "没有叫 {name!r} 的教程；可选：{names}（或用 `loopscope tutorial list` 查看）",
    ),
    "tutorial.error.no_part": (
        "tutorial {name!r} has no part {number}; its parts: {parts}",
        "教程 {name!r} 没有第 {number} 部分；它的部分：{parts}",
    ),
    "tutorial.error.no_recording": (
        "no recording at {path}; record it with `loopscope record {scenario}`",
        "{path} 没有录制文件；用 `loopscope record {scenario}` 录制它",
    ),
    "tutorial.error.misfit": (
        "the narration of {name!r} does not fit its fixture: {problem}",
        "{name!r} 的讲解与它的录制文件对不上：{problem}",
    ),
}
