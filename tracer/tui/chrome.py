"""The debugger's own words in Chinese (pane titles, keys, stop labels, status messages); notes carry their own."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from typing import Any

from .views.tutorial_place import narration_language

# `loopscope runs`: the table's column titles (and --by's), its keys and its sentences. The values in the
# cells (outcomes, models) stay as they are: they are what --where and F compare with.
RUNS_WORDS_ZH = {
    "path": "路径",
    "name": "名称",
    "outcome": "结果",
    "iter": "轮数",
    "llm": "模型调用",
    "tools": "工具调用",
    "errors": "错误",
    "tokens": "token 数",
    "cost": "花费",
    "time": "用时",
    "model": "模型",
    "recorded": "录制于",
    "note": "说明",
    "tool": "工具",
    "calls": "调用次数",
    "retries": "重试",
    "runs": "运行数",
    "failures": "失败",
    "fallbacks": "回退",
    "open in the debugger": "在调试器中打开",
    "mark (two for D)": "标记（标两个，按 D 对比）",
    "diff the marked runs": "对比标记的运行",
    "filter": "筛选",
    "sort by the next column": "按下一列排序",
    "reverse the order": "倒转顺序",
    "back to the runs table": "回到运行列表",
    "sorted by": "排序",
    "no run matches": "没有匹配的运行",
    "filtering…": "筛选中…",
    "nothing to search for: / first": "没有要搜索的内容：先按 /",
    "Search the runs for": "在运行列表中搜索",
    "text in any cell (path, name, outcome, model, note); n / N: next / previous": (
        "任一单元格里的文字（路径、名称、结果、模型、说明）；n / N：下一个 / 上一个"
    ),
    "Show only the runs where": "只显示满足条件的运行",
    'e.g. outcome == "error", cost > 0.01, kind == "tool_error", tool == "Search"; empty clears': (
        '例如 outcome == "error"、cost > 0.01、kind == "tool_error"、tool == "Search"；留空则清除'
    ),
    "mark two runs with space, then D (or mark one and put the cursor on another)": (
        "先用空格标记两次运行，再按 D（或标记一次，把光标移到另一次上）"
    ),
    "the runs take the same transitions": "两次运行的转移完全相同",
}
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

# Exact strings: binding descriptions, pane and tab titles, help sections.
WORDS_ZH = {
    "step": "单步",
    "next": "下一步",
    "step out": "跳出",
    "continue": "继续",
    "step back": "后退一步",
    "next, backwards": "下一步（向后）",
    "step out, backwards (to the call)": "向后跳出（回到调用处）",
    "reverse continue": "向后继续",
    "first event": "第一个事件",
    "last event": "最后一个事件",
    "up the stack (show the caller)": "沿调用栈向上（看调用方）",
    "down the stack": "沿调用栈向下",
    "next stop": "下一停靠点",
    "previous stop": "上一停靠点",
    "pause a running live continue or a long search": "暂停正在进行的实时继续或长时间搜索",
    "go to event number": "跳到事件编号",
    "search": "搜索",
    "next match": "下一个匹配",
    "previous match": "上一个匹配",
    "breakpoint": "断点",
    "add breakpoint (kind, tool, condition …)": "添加断点（类型、工具、条件 …）",
    "fork: change this reply or observation and re-run": "分叉：改这条回复或观察结果后重跑",
    "diff with the parent run (or another trace)": "与父运行（或另一份轨迹）对比",
    "tutorials": "教程",
    "variables pane": "变量窗格",
    "prompt pane": "提示词窗格",
    "detail pane": "详情窗格",
    "breakpoints pane": "断点窗格",
    "narration pane (tutorials)": "讲解窗格（教程）",
    "scroll the pane": "滚动窗格",
    "scroll the pane up": "向上滚动窗格",
    "wide source (hide the timeline)": "加宽源码（隐藏时间线）",
    "help": "帮助",
    "quit": "退出",
    "Narration": "讲解",
    "Variables": "变量",
    "Prompt": "提示词",
    "Detail": "详情",
    "Breakpoints": "断点",
    "Timeline": "时间线",
    "Call stack": "调用栈",
    "Source": "源码",
    "Moving": "移动",
    "Looking around": "四处看看",
    "In the timeline / source pane (focus with tab)": "在时间线 / 源码窗格里（用 tab 聚焦）",
    "In the breakpoints pane (4, then tab to focus it)": "在断点窗格里（按 4，再用 tab 聚焦）",
    "go to that event / frame": "跳到那个事件 / 栈帧",
    "next row": "下一行",
    "previous row": "上一行",
    "toggle a breakpoint on the cursor line": "在光标所在行开关断点",
    "enable/disable": "启用/停用",
    "delete": "删除",
    "temporary": "临时",
    "ignore +1": "忽略次数 +1",
    "ignore -1": "忽略次数 -1",
    "next line": "下一行",
    # The source pane's title, after the frame's place.
    "your code, paused at this line (live)": "你的代码：实时暂停在这一行",
    "your code: the function this event calls": "你的代码：这个事件调用的函数",
    "caller line inferred from the source": "调用方行号由源码推断",
    # The loop's states (executor/states.py), as the status line names them.
    "planning": "规划",
    "acting": "行动",
    "observing": "观察",
    "summarizing": "总结",
    "finished": "完成",
    "error": "出错",
    # The Variables and Prompt panes' own sentences (model and tool text in them is never translated).
    "Indexing the trace… the loop state appears when it is done.": "正在为轨迹建索引……完成后这里显示循环的状态。",
    "_call's variables at this event, rebuilt from the recorded events": "_call 在这个事件处的变量，由录下的事件重建",
    "The graph state at this event, rebuilt from the recorded events": "这个事件处的图状态（graph state），由录下的事件重建",
    "(not planned yet in this iteration)": "（这一轮还没有规划）",
    "(not checked yet in this iteration)": "（这一轮还没有检查）",
    "(no chain_start yet)": "（还没有 chain_start）",
    "Indexing the trace… the prompt appears when it is done.": "正在为轨迹建索引……完成后这里显示提示词。",
    "template": "模板",
    "scratchpad": "草稿区（scratchpad）",
    "This prompt does not simply extend the previous one; what changed:": "这次的提示词并不只是在上一次后面追加；改动如下：",
    "(too long to diff line by line)": "（太长，无法逐行对比）",
    "(the reply has not come back yet at this event)": "（到这个事件为止，回复还没有回来）",
    "close help": "关闭帮助",
    "scroll down": "向下滚动",
    "scroll up": "向上滚动",
    "page down": "下一页",
    "page up": "上一页",
    **RUNS_WORDS_ZH,
}

_MOTIONS_ZH = {"step": "单步", "next": "下一步", "step out": "跳出", "continue": "继续"}


def _motion(match: re.Match[str]) -> str:
    return _MOTIONS_ZH[match[1]] + ("（向后）" if match[2] else "")


# Status messages and titles built with values: (pattern, Chinese template with \1 ... or a function of the match).
MESSAGES_ZH: list[tuple[str, str | Callable[[re.Match[str]], str]]] = [
    (
        r"s step · n next · r step out · c continue \(capitals go backwards\) · \? help",
        "s 单步 · n 下一步 · r 跳出 · c 继续（大写字母向后）· ? 帮助",
    ),
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
    (r"\(no real locals: (.*)\)", r"（没有真实的局部变量：\1）"),
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
        r"\1 第 \2 次调用 · 事件 \3 · \4 个字符 · stop \5",
    ),
    (r" · the last call before event (\d+)", r" · 事件 \1 之前的最后一次调用"),
    (
        r"([\d,]+) prompt \+ ([\d,]+) completion tokens, (estimated \(no usage recorded\)|from the endpoint's usage) · (.*)",
        lambda m: (
            f"提示词 {m[1]} + 补全 {m[2]} 个 token，"
            f"{'估算（没有记录 usage）' if m[3].startswith('estimated') else '来自端点返回的 usage'} · {m[4]}"
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
    (
        r"(end of that part · )?tutorial (\S+), part (\d+) of (\d+): stop 1/(\d+) · space walks the stops"
        r"( · T picks another part)?",
        lambda m: (
            f"{'上一部分结束 · ' if m[1] else ''}教程 {m[2]}，第 {m[3]}/{m[4]} 部分：停靠点 1/{m[5]} · 按空格逐个走"
            f"{' · 按 T 换一个部分' if m[6] else ''}"
        ),
    ),
    (r"tutorial (\S+): stop 1/(\d+) · space walks the stops", r"教程 \1：停靠点 1/\2 · 按空格逐个走"),
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


def chrome_language(stops: Sequence[Any]) -> str:
    """The debugger speaks the language of the tutorial's notes (English elsewhere)."""
    return narration_language(stops) if stops else "en"
