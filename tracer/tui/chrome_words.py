"""The debugger's own fixed words in Chinese: keys, pane titles, labels and messages without values."""

from __future__ import annotations

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
    # The waterfall (w): its title, lanes and keys.
    "Waterfall": "瀑布图",
    "waterfall (calls and waits on a time axis)": "瀑布图（时间轴上的调用与等待）",
    "time": "时间",
    "waits": "等待",
    "events": "事件",
    "next bar": "下一条",
    "previous bar": "上一条",
    "lane below": "下一泳道",
    "lane above": "上一泳道",
    "zoom in": "放大",
    "zoom out": "缩小",
    "the whole run": "整个运行",
    "no model or tool calls in this run": "这次运行没有模型或工具调用",
    # A bar's description under the lanes (the bar's own label stays as the trace has it).
    "summary": "摘要",
    "retry": "重试",
    "rate limit": "限流等待",
    "event": "事件",
    "failed": "失败",
    "unfinished": "未结束",
    "←/→ bars · ↑/↓ lanes · +/- zoom · 0 whole run · w hides": "←/→ 条 · ↑/↓ 泳道 · +/- 缩放 · 0 整个运行 · w 隐藏",
    "Indexing the trace… the waterfall appears when it is done.": "正在为轨迹建索引……完成后这里显示瀑布图。",
    "scroll down": "向下滚动",
    "scroll up": "向上滚动",
    "page down": "下一页",
    "page up": "上一页",
    # Keys not in the footer, as the help screen and the panes' own lines name them.
    "filter": "筛选",
    "step within the filter (on/off)": "在筛选内移动（开/关）",
    "edit this model call's prompt and ask again": "编辑这次模型调用的提示词，再问一次",
    "previous breakpoint": "上一个断点",
    "next breakpoint": "下一个断点",
    "cursor down": "光标下移",
    "cursor up": "光标上移",
    "cursor page down": "光标下移一页",
    "cursor page up": "光标上移一页",
    "close the picker": "关闭选择器",
    "cancel": "取消",
    "close the diff": "关闭对比",
    "select all": "全选",
    "fork with this text": "用这段文字分叉",
    "send the prompt": "发送提示词",
    "fork the run with the new reply": "用新回复分叉这次运行",
    "close": "关闭",
    # Status messages without values.
    "last event so far (c runs the live executor on)": "目前的最后一个事件（c 让实时执行器继续跑）",
    "the trace is still being indexed: filter once it is ready": "轨迹还在建索引：建好后再筛选",
    "filter cleared: every event is shown": "已清除筛选：显示所有事件",
    "stepping visits every event again (hidden ones too)": "移动重新经过每个事件（包括隐藏的）",
    "forking needs a recorded trace: finish the live run, then `loopscope debug` its file": (
        "分叉需要录好的轨迹：先结束实时运行，再用 `loopscope debug` 打开它的文件"
    ),
    "the playground needs a recorded trace: finish the live run, then `loopscope debug` its file": (
        "试验场需要录好的轨迹：先结束实时运行，再用 `loopscope debug` 打开它的文件"
    ),
    "playground closed": "已关闭试验场",
    "no search yet: press / first": "还没有搜索：先按 /",
    "no source line here to put a breakpoint on": "这里没有可以下断点的源码行",
    "no tutorial opened": "没有打开教程",
    "no tutorial stops in this session (loopscope tutorial NAME has them)": (
        "这次会话没有讲解停靠点（`loopscope tutorial 名字` 才有）"
    ),
    "running your tool function live… (esc pauses)": "正在实时运行你的工具函数…（esc 暂停）",
    "running the executor live… (esc pauses)": "正在实时运行执行器…（esc 暂停）",
    "indexing the trace…": "正在为轨迹建索引…",
    "⚠ truncated: the run did not finish": "⚠ 不完整：这次运行没有结束",
    "⚠ truncated: the last line was cut off": "⚠ 不完整：最后一行被截断了",
    # Questions and their hints (AskScreen).
    "Go to event number": "跳到事件编号",
    "Search the events for": "在事件里搜索",
    "smart case: capitals make it exact · ] and [ repeat it": "智能大小写：有大写字母就区分大小写 · ] 和 [ 重复搜索",
    "Add a breakpoint": "添加断点",
    "Show only (empty: show everything)": "只显示（留空：显示全部）",
    "Diff this run against which trace? (its path)": "这次运行要和哪份轨迹对比？（填它的路径）",
    "type the path of a trace file (.jsonl)": "输入一份轨迹文件（.jsonl）的路径",
    (
        "write KIND (e.g. tool_error), tool=NAME, iteration=N, method=NAME, line=[FILE:]N "
        "or `if CONDITION`; add `if CONDITION` to any of them; prefix `temp` or `ignore=N`"
    ): (
        "写 KIND（如 tool_error）、tool=NAME、iteration=N、method=NAME、line=[FILE:]N 或 `if CONDITION`；"
        "任何一种后面都可以加 `if CONDITION`；前面可以加 `temp` 或 `ignore=N`"
    ),
    (
        "KIND…, tool=NAME, iteration=N (or N-M), and/or `if CONDITION` (as in breakpoints); "
        "a list of one sort shows any of them, different sorts must all hold; empty clears"
    ): (
        "KIND…、tool=NAME、iteration=N（或 N-M），以及/或者 `if CONDITION`（和断点一样）；"
        "同一种列几个显示其中任何一个，不同种类必须同时满足；留空则清除"
    ),
    # The tutorial picker, the fork box, the diff and the playground.
    "↑/↓ choose · enter opens (a name opens part 1) · esc cancels": "↑/↓ 选择 · enter 打开（选名字打开第 1 部分）· esc 取消",
    "the model's reply": "模型的回复",
    "the tool's observation": "工具的观察结果",
    (
        "After this event the run re-executes, and every later model reply is replayed from the recording, "
        "in order: a changed observation can still end in the old answer. A changed reply changes what the "
        "executor does next (another tool, a parse error, the final answer)."
    ): (
        "从这个事件之后，这次运行会重新执行，之后模型的每条回复都按顺序从录制里回放："
        "改了观察结果，结局仍可能是原来的答案。改了回复，执行器接下来做的事就会变"
        "（换一个工具、解析出错、给出最终答案）。"
    ),
    "ctrl+s: re-run the trace with this text, open the fork · ctrl+a: select all · esc: cancel": (
        "ctrl+s：用这段文字重跑轨迹并打开分叉 · ctrl+a：全选 · esc：取消"
    ),
    "control characters of the recording are shown, and sent, as visible stand-ins (␛, \\xNN)": (
        "录制里的控制字符以可见的替代符号显示，也以它们发送（␛、\\xNN）"
    ),
    "the text is unchanged: edit it first (esc cancels)": "文字没有改：先改一改（esc 取消）",
    "After this event the run re-executes; a later model call asked exactly what was recorded gets its reply.": (
        "从这个事件之后，这次运行会重新执行；之后的模型调用如果问的和录下的一字不差，就得到录下的回复。"
    ),
    "One whose prompt changed gets the reply recorded for the old prompt (named; the outcome may be stale).": (
        "提示词变了的调用，得到的是为旧提示词录下的回复（会注明；结果可能已经过时）。"
    ),
    "One whose prompt changed ends the fork there, its new prompt in the trace (e asks a model with it).": (
        "提示词变了的调用，分叉就停在那里，新的提示词留在轨迹里（e 可以拿它去问模型）。"
    ),
    "One whose prompt changed goes to the live model {model}.": "提示词变了的调用，交给实时模型 {model}。",
    "answer from the recording": "用录下的回复回答",
    "stop there": "停在那里",
    "ask {model}": "问 {model}",
    "what answers a later prompt that changed": "之后变了的提示词由谁回答",
    "esc closes · ↑/↓ pgup/pgdn scroll": "esc 关闭 · ↑/↓ pgup/pgdn 滚动",
    "Diff": "对比",
    "the parent of this fork": "这个分叉的父运行",
    "the trace you named": "你指定的轨迹",
    "recorded reply": "录下的回复",
    "new reply": "新回复",
    "ctrl+s asks again": "ctrl+s 再问一次",
    "ctrl+s: send · esc: close": "ctrl+s：发送 · esc：关闭",
    "(empty)": "（空）",
    "the same reply as recorded: a fork would change nothing (edit the prompt, ctrl+s)": (
        "和录下的回复一样：分叉什么也不会改变（改一改提示词，再按 ctrl+s）"
    ),
    "── diff against the recorded reply ──": "── 和录下的回复对比 ──",
    "No breakpoints. b sets one on the current line; B adds any kind:": "没有断点。b 在当前行设一个；B 添加任何一种：",
    "e enable/disable · x delete · t temporary · +/- ignore count (focus this pane)": (
        "e 启用/停用 · x 删除 · t 临时 · +/- 忽略次数（先聚焦这个窗格）"
    ),
    "this event": "这个事件",
    **RUNS_WORDS_ZH,
}
