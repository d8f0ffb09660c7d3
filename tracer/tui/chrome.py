"""The debugger's own words in Chinese (pane titles, keys, stop labels, status messages); notes carry their own."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from typing import Any

from textual.binding import Binding

from ..i18n import say, templates
from .chrome_words import WORDS_ZH
from .views.tutorial_place import narration_language

RUNS_MESSAGES_ZH: list[tuple[str, str]] = [
    (r"([\d,]+) runs", r"\1 次运行"),
    (r"([\d,]+) shown", r"显示 \1 次"),
    (r"(\d+) marked", r"已标记 \1 次"),
    (r"cannot open it: (.*)", r"无法打开：\1"),
    (r"cannot diff: (.*)", r"无法对比：\1"),
    (r"found (.*) at row (\d+)", r"在第 \2 行找到 \1"),
    (r"no row has (.*)", r"没有一行包含 \1"),
    (r"they part at transition (\d+)", r"两次运行在第 \1 个转移处分开"),
    (r"opened from the runs table · q goes back to it · (.*)", r"从运行列表打开 · 按 q 回到列表 · \1"),
]

_MOTIONS_ZH = {"step": "单步", "next": "下一步", "step out": "跳出", "continue": "继续"}


def _price(text: str) -> str:
    """`$0.000074 (an estimate: …)` or `no price (no price for 'm': …)` in Chinese."""
    estimate = re.fullmatch(r"(\S+) \(an estimate: (.*) costs nothing, priced as (.*)\)", text)
    if estimate:
        return f"{estimate[1]}（估算：{estimate[2]} 不收费，按 {estimate[3]} 的价格计）"
    missing = re.fullmatch(r"no price \(no price for (.*): add it to a (\S+) file\)", text)
    if missing:
        return f"没有价格（{missing[1]} 没有价格：把它加进 {missing[2]} 文件）"
    return text


def _motion(match: re.Match[str]) -> str:
    return _MOTIONS_ZH[match[1]] + ("（向后）" if match[2] else "")


# Status messages and titles built with values: (pattern, Chinese template with \1 ... or a function of the match).
MESSAGES_ZH: list[tuple[str, str | Callable[[re.Match[str]], str]]] = [
    (r"S N R C: the same motions backwards · \? lists every key", "S N R C：同样的移动，向后 · ? 列出所有按键"),
    (r"(step|next|step out|continue)( backwards)? → event (\d+)", lambda m: f"{_motion(m)} → 事件 {m[3]}"),
    (
        r"(step|next|step out|continue)( backwards)?: reached the (last|first) event( \(already there\))?",
        lambda m: f"{_motion(m)}：到了{'最后' if m[3] == 'last' else '第'}一个事件{'（已经在这里）' if m[4] else ''}",
    ),
    (
        r"(step|next|step out|continue)( backwards)?: stopped at breakpoint (.*) in (\S+\(\))",
        lambda m: f"{_motion(m)}：停在 {m[4]} 里的断点 {m[3]}",
    ),
    (
        r"(step|next|step out|continue)( backwards)?: stopped at breakpoint (.*)",
        lambda m: f"{_motion(m)}：停在断点 {m[3]}",
    ),
    (
        r"(step|next|step out|continue)( backwards)?: (\S+\(\)) line (\d+)",
        lambda m: f"{_motion(m)}：{m[3]} 第 {m[4]} 行",
    ),
    (
        r"(step|next|step out|continue)( backwards)?: (\S+\(\)) is done → event (\d+) \((\w+)\)",
        lambda m: f"{_motion(m)}：{m[3]} 已返回 → 事件 {m[4]}（{m[5]}）",
    ),
    (
        r"(step|next|step out|continue)( backwards)?: (\S+\(\)) is done → event (\d+) \(another call's (\w+); "
        r"\S+ own comes in turn\)",
        lambda m: f"{_motion(m)}：{m[3]} 已返回 → 事件 {m[4]}（另一个调用的 {m[5]}；{m[3]} 自己的事件按顺序稍后到来）",
    ),
    (
        r"(step|next|step out|continue)( backwards)?: (\S+\(\)) never ran: its arguments did not fit → event (\d+) \((\w+)\)",
        lambda m: f"{_motion(m)}：{m[3]} 没有运行：参数不符合它的要求 → 事件 {m[4]}（{m[5]}）",
    ),
    (
        r"(step|next|step out|continue)( backwards)?: (\S+\(\)) raised (\w+) → event (\d+) \((\w+)\)",
        lambda m: f"{_motion(m)}：{m[3]} 抛出了 {m[4]} → 事件 {m[5]}（{m[6]}）",
    ),
    (
        r"(.+) · stepping into (\S+\(\)) line by line needs live mode: .*",
        lambda m: (
            f"{localise(m[1], 'zh')} · 逐行进入 {m[2]} 需要实时模式：录制的轨迹只有事件，没有函数的每一行"
            "（loopscope debug --live AGENT --model replay:TRACE）"
        ),
    ),
    (
        r"(.+) · this call of (\S+\(\)) has already run: s steps into a function at the newest event",
        lambda m: f"{localise(m[1], 'zh')} · 这次 {m[2]} 调用已经运行过了：只能在最新的事件处进入函数",
    ),
    (r"(.+) · not stepping into it: (.*)", lambda m: f"{localise(m[1], 'zh')} · 没有进入函数：{m[2]}"),
    (
        r"(.+) · no event can reach (\S+): it is outside every function the loop calls",
        lambda m: f"{m[1]} · 没有事件能到达 {m[2]}：它不在循环调用的任何函数里",
    ),
    (
        r"(.+) · no event can reach (\S+): (\S+) holds no function the loop calls",
        lambda m: f"{m[1]} · 没有事件能到达 {m[2]}：{m[3]} 里没有循环调用的函数",
    ),
    (
        r"(step|next|step out|continue)( backwards)?: stopped (at event (\d+)|where it started), breakpoint conditions "
        r"checked up to here \(esc\)",
        lambda m: f"{_motion(m)}：{'停在事件 ' + m[4] if m[4] else '停在出发处'}，断点条件已检查到这里（esc）",
    ),
    (
        r"(.+): checking breakpoint conditions event by event… \(esc stops\)",
        lambda m: (
            f"{_MOTIONS_ZH.get(m[1]) or _MOTIONS_ZH.get('step ' + m[1], m[1])}：逐个事件检查断点条件…（esc 停止）"
        ),
    ),
    (
        r"step out( backwards)?: left the frame, now in (.*)",
        lambda m: f"跳出{'（向后）' if m[1] else ''}：离开了这一层，现在在 {m[2]}",
    ),
    # The Variables and Prompt panes, sentences with values.
    (
        r"\(the real locals follow: re-executing the run, ([\d,]+) of ([\d,]+) events…\)",
        r"（真实的局部变量随后就到：正在重新执行这次运行，\2 个事件中已到 \1 个…）",
    ),
    (r"\(no real locals: (.*)\)", lambda m: f"（没有真实的局部变量：{localise(m[1], 'zh')}）"),
    # Why a recording's run cannot be re-executed (tracer/debug/reenactment.py).
    (
        r"the trace has more than ([\d,]+) events; re-executing it would take too long",
        r"轨迹超过 \1 个事件，重新执行太久了",
    ),
    (
        r"the trace's header names no scenario, so its run cannot be re-executed",
        "轨迹的文件头没有写场景，所以无法重新执行这次运行",
    ),
    (r"the run could not be re-executed \((.*)\)", r"这次运行无法重新执行（\1）"),
    (r"the re-executed run ended after (\d+) events \((.*)\)", r"重新执行的运行在 \1 个事件之后就结束了（\2）"),
    (r"event (\d+) of the recording cannot be read \((.*)\)", r"录制里的事件 \1 读不出来（\2）"),
    (
        r"the recording was made by other code \((.*)\), so its locals cannot be re-created here",
        r"这份录制是别的代码（\1）做的，所以它的局部变量没法在这里重现",
    ),
    (
        r"the re-executed run differs from the recording at event (\d+) \((\w+) at line (\d+) vs (\w+) at line "
        r"(\d+)\): the executor changed since it was recorded",
        r"重新执行的运行在事件 \1 和录制不同（\2 在第 \3 行，录制是 \4 在第 \5 行）：录制之后执行器改过了",
    ),
    (r"the trace was closed", "轨迹已经关闭"),
    (r"\(event (\d+)\)", r"（事件 \1）"),
    (r"\(isinstance\(output, AgentFinish\), event (\d+)\)", r"（isinstance(output, AgentFinish)，事件 \1）"),
    (r"… (\d+) earlier", r"… 更早的 \1 个"),
    (r"\(none: (\w+)\)", r"（没有：\1）"),
    (r"\(event (\d+); the next prompt ends with it\)", r"（事件 \1；下一次的提示词以它结尾）"),
    (r"\((\d+) locals\)", r"（\1 个局部变量）"),
    (
        r"Real locals captured when this event was yielded; u/d: caller/callee frame",
        "真实的局部变量，在这个事件被 yield 时取下；u/d：调用方/被调用方栈帧",
    ),
    (
        r"Real locals of the run re-executed on the recorded replies, paused at this event; u/d: caller/callee frame",
        "真实的局部变量，来自用录下的回复重新执行的这次运行，停在这个事件处；u/d：调用方/被调用方栈帧",
    ),
    (
        r"Real locals of (\S+\(\)), paused before line (\d+) runs \(live\); u/d: caller/callee frame",
        r"\1 的真实局部变量，停在第 \2 行执行之前（实时）；u/d：调用方/被调用方栈帧",
    ),
    (
        r"No model call has happened yet at this event; the first one is event (\d+)\.",
        r"到这个事件为止还没有调用过模型；第一次调用是事件 \1。",
    ),
    (r"No model call has happened yet at this event\.", "到这个事件为止还没有调用过模型。"),
    (
        r"(\S+\(\)) call #(\d+) · event (\d+) · ([\d,]+) chars · stop (.*)",
        r"\1 第 \2 次调用 · 事件 \3 · \4 个字符 · 停止序列 \5",
    ),
    (r" · the last call before event (\d+)", r" · 事件 \1 之前的最后一次调用"),
    (
        r"([\d,]+) prompt \+ ([\d,]+) completion tokens, (estimated \(no usage recorded\)|from the endpoint's usage) · (.*)",
        lambda m: (
            f"提示词 {m[1]} + 补全 {m[2]} 个 token，"
            f"{'估算（没有记录 usage）' if m[3].startswith('estimated') else '来自端点返回的 usage'} · {_price(m[4])}"
        ),
    ),
    (r"new since call #(\d+) \(event (\d+)\)", r"第 \1 次调用（事件 \2）之后新增的"),
    (r"Reply \(event (\d+)\), exactly as it came back:", r"回复（事件 \1），原样照录："),
    (r"tutorial stop at event (\d+)", r"讲解停靠点：事件 \1"),
    (r"step into (\S+\(\))", r"进入 \1"),
    (r"run (\S+\(\)) to its end", r"运行 \1 到结束"),
    (r"no further stop that way", "这个方向没有停靠点了"),
    (
        r"the run is live: s \(or c\) runs it on; the next stop is event (\d+)",
        r"这是实时运行：按 s（或 c）让它往下跑；下一个停靠点是事件 \1",
    ),
    (r"frame (.*)", r"栈帧 \1"),
    (r"already at the outermost frame", "已经在最外层栈帧"),
    (r"already at the event's frame", "已经在事件所在的栈帧"),
    (r"went to event (\d+)", r"跳到了事件 \1"),
    (r"fork cancelled", "已取消分叉"),
    (r"z: wide source; the timeline is hidden \(z brings it back\)", "z：加宽源码，时间线已隐藏（再按 z 恢复）"),
    (r"z: the timeline is back", "z：时间线回来了"),
    (r"tool (\d+)(\+?)", r"工具 \1\2"),
    (r"model (\d+)(\+?)", r"模型 \1\2"),
    (r"waits (\d+)(\+?)", r"等待 \1\2"),
    (r"events (\d+)(\+?)", r"事件 \1\2"),
    (
        r"reading the times of ([\d,]+) events…(?: (\d+)%)?",
        lambda m: f"正在读取 {m[1]} 个事件的时间…{' ' + m[2] + '%' if m[2] else ''}",
    ),
    (r"waterfall shown \(w hides it\)", "已显示瀑布图（按 w 隐藏）"),
    (r"(\d+) lanes?", r"\1 条泳道"),
    (r"event (\d+) is between bars", r"事件 \1 不在任何条上"),
    (r"waterfall hidden \(w shows it\)", "瀑布图已隐藏（按 w 显示）"),
    (
        r"(end of that part · )?tutorial (\S+), part (\d+) of (\d+): stop 1/(\d+) · space walks the stops"
        r"( · T picks another part)?",
        lambda m: (
            f"{'上一部分结束 · ' if m[1] else ''}教程 {m[2]}，第 {m[3]}/{m[4]} 部分：停靠点 1/{m[5]} · 按空格逐个走"
            f"{' · 按 T 换一个部分' if m[6] else ''}"
        ),
    ),
    (r"tutorial (\S+): stop 1/(\d+) · space walks the stops", r"教程 \1：停靠点 1/\2 · 按空格逐个走"),
    # Messages of the flows, with values.
    (r"wait: (.*)", lambda m: f"请稍等：{localise(m[1], 'zh')}"),
    (r"event (\d+)", r"事件 \1"),
    (r"warning: (.*)", r"警告：\1"),
    (
        r"(.*) · no shown event further that way \(F changes the filter\)",
        lambda m: f"{localise(m[1], 'zh')} · 这个方向没有更多显示出来的事件了（F 改筛选）",
    ),
    (
        r"stepping within the filter: s n r c land only on shown events( \(no filter yet: F sets one\))?",
        lambda m: "在筛选内移动：s n r c 只停在显示出来的事件上" + ("（还没有筛选：按 F 设一个）" if m[1] else ""),
    ),
    (r"filtering: (.*)…", r"正在筛选：\1…"),
    (r"running the executor live… \(esc pauses\) · (\d+) events", r"正在实时运行执行器…（esc 暂停）· \1 个事件"),
    (r"paused at event (\d+)", r"暂停在事件 \1"),
    (r"type an event number from 0 to (\d+)", r"输入 0 到 \1 之间的事件编号"),
    (r"searching for (.*)…", r"正在搜索 \1…"),
    (r"no event contains (.*)", r"没有事件包含 \1"),
    (r"(.*) found in event (\d+) \(\] next, \[ previous\)", r"在事件 \2 找到 \1（] 下一个，[ 上一个）"),
    (r"breakpoint #(\d+) set on (\S+)(.*)", r"断点 #\1 设在 \2\3"),
    (r"breakpoint on (\S+) removed", r"已删除 \1 上的断点"),
    (r"breakpoint #(\d+) (.*)", r"断点 #\1 \2"),
    (r"f forks (\S+) \(a reply\) or (\S+) \(an observation\)", r"f 在 \1 处分叉（改回复）或在 \2 处分叉（改观察结果）"),
    (r"cannot fork here: (.*)", r"这里不能分叉：\1"),
    (r"ctrl\+t: (.*) instead", r"ctrl+t：改为\1"),
    (r"fork failed: (.*)", r"分叉失败：\1"),
    (
        r"forking at event (\d+): re-running the trace with the new (reply|observation)…",
        lambda m: f"在事件 {m[1]} 分叉：用新的{'回复' if m[2] == 'reply' else '观察结果'}重跑轨迹…",
    ),
    (
        r"forked into (\S+) · new (reply|observation) at event (\d+) \((\w+)\) · D: diff with parent( · the fork stopped early: (.*))?",
        lambda m: (
            f"已分叉到 {m[1]} · 事件 {m[3]}（{m[4]}）换成了新的{'回复' if m[2] == 'reply' else '观察结果'} · D：与父运行对比"
            + (f" · 分叉提前停止了：{m[6]}" if m[5] else "")
        ),
    ),
    (r"cannot diff: (.*)", r"无法对比：\1"),
    (
        r"diff with (the parent of this fork|the trace you named): (they take the same transitions|they part at transition (\d+))",
        lambda m: f"与{localise(m[1], 'zh')}对比：" + (f"在第 {m[3]} 个转移处分开" if m[3] else "走的是同样的转移"),
    ),
    (
        r"A = (the parent of this fork|the trace you named) · B = the run open here",
        lambda m: f"A = {localise(m[1], 'zh')} · B = 这里打开的运行",
    ),
    (
        r"(the parent (.*) named in this fork's header is not there; )?the runs are aligned by transition, as `loopscope diff` does",
        lambda m: (
            (f"这个分叉的文件头写的父运行 {m[2]} 不在了；" if m[1] else "")
            + "两次运行按转移对齐，和 `loopscope diff` 一样"
        ),
    ),
    (r"e works at a model call: (.*)", r"e 只在模型调用处可用：\1"),
    (r"cannot open tutorial (\S+): (.*)", r"打不开教程 \1：\2"),
    (r"no source line is known for (\S+)", r"不知道 \1 的源码行"),
    (r"Timeline · fork at event (\d+)", r"时间线 · 在事件 \1 分叉"),
    (
        r"filter: (.*) · ([\d,]+) shown, ([\d,]+) hidden( · current event hidden)?( · stepping within filter)?",
        lambda m: (
            f"筛选：{m[1]} · 显示 {m[2]} 个，隐藏 {m[3]} 个"
            + (" · 当前事件被隐藏" if m[4] else "")
            + (" · 在筛选内移动" if m[5] else "")
        ),
    ),
    (r"Tutorials · narration in (.*)", r"教程 · 讲解语言：\1"),
    (
        r"Fork at event (\d+) \((\w+)\): replace (the model's reply|the tool's observation)",
        lambda m: f"在事件 {m[1]}（{m[2]}）分叉：替换{localise(m[3], 'zh')}",
    ),
    (
        r"Event (\d+): (\S+) asked (.*) · edit the exact prompt, ctrl\+s sends it",
        r"事件 \1：\2 问了 \3 · 编辑原样的提示词，ctrl+s 发送",
    ),
    (r"asking (.*)…", lambda m: f"正在问{'配置好的模型' if m[1] == 'the configured model' else ' ' + m[1]}…"),
    (
        r"(the same reply|(\d+) diff line\(s\)) · f: fork the run with this reply · tab: edit again · ctrl\+s: send · esc: close",
        lambda m: (
            ("回复一样" if m[2] is None else f"{m[2]} 行不同")
            + " · f：用这条回复分叉 · tab：再编辑 · ctrl+s：发送 · esc：关闭"
        ),
    ),
    (r"new reply · (.*) · ([\d.]+)s", r"新回复 · \1 · \2 秒"),
    # The Detail pane's bill of one model call, and why there is no price.
    (
        r"(.*) · no price \(no price for (.*): add it to a (\S+) file\)",
        r"\1 · 没有价格（\2 没有价格：把它加进 \3 文件）",
    ),
    # The source pane's title at a stop whose narration points at a pane below.
    (r"Narration · the (\w+) pane is below", lambda m: f"讲解 · 下方是{localise(m[1] + ' pane', 'zh')}"),
]
MESSAGES_ZH += RUNS_MESSAGES_ZH


@functools.cache  # on the first Chinese word asked for: compiling them all took ~3 ms of every start-up
def _compiled() -> list[tuple[re.Pattern[str], Any]]:
    return [(re.compile(pattern + r"$"), replacement) for pattern, replacement in MESSAGES_ZH]


def localise(text: str, lang: str) -> str:
    """`text` in `lang` when the debugger knows it; otherwise unchanged (model and tool text never are)."""
    if lang != "zh":
        return text
    if text in WORDS_ZH:
        return WORDS_ZH[text]
    for pattern, replacement in _compiled():
        match = pattern.match(text)
        if match:
            return match.expand(replacement) if isinstance(replacement, str) else replacement(match)
    return text


def key_name(key: str, lang: str) -> str | None:
    """A key named by a word, in `lang` (None: the key's own name is shown)."""
    return say(f"keys.name.{key}", lang) if lang != "en" and f"keys.name.{key}" in templates() else None


def binding_words(binding: Binding, lang: str) -> str:
    """What a key does, in `lang`: its binding id's words, unless its description was changed from them
    (a motion key at a tool's function says what it does there)."""
    key = f"keys.{binding.id}"
    if key in templates() and binding.description == say(key, "en"):
        return say(key, lang)
    return binding.description


def app_language(app: object) -> str:
    """The language of the debugger screen under a modal one (English when there is none)."""
    for screen in reversed(getattr(app, "screen_stack", [])):
        if hasattr(screen, "lang") and hasattr(screen, "session"):
            return str(screen.lang)
    return str(getattr(app, "lang", "en"))


def chrome_language(stops: Sequence[Any]) -> str:
    """The debugger speaks the language of the tutorial's notes (English elsewhere)."""
    return narration_language(stops) if stops else "en"
