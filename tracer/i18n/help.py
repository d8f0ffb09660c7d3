"""The debugger's help (?): each key's longer words, and how moving, breakpoints and conditions work."""

# The syntax of breakpoints and conditions stays as it is typed, in both languages.
MESSAGES: dict[str, tuple[str, str]] = {
    "help.title": ("loopscope debugger — keys  ({hint})", "loopscope 调试器 — 按键  ({hint})"),
    "help.scroll": (
        "↓/↑ or j/k scroll · space/pgdn a page · esc closes",
        "↓/↑ 或 j/k 滚动 · 空格/pgdn 翻页 · esc 关闭",
    ),
    "help.moving": ("Moving", "移动"),
    "help.looking": ("Looking around", "四处看看"),
    "help.in_timeline": ("In the timeline / source pane (focus with tab)", "在时间线 / 源码窗格里（用 tab 聚焦）"),
    "help.in_breakpoints": ("In the breakpoints pane (4, then tab to focus it)", "在断点窗格里（按 4，再用 tab 聚焦）"),
    "help.motions": (
        (
            "Moving works on events the way pdb works on lines. Capitals go backwards: a replay can always go back.\n"
            "  step      the next event, whatever frame it comes from\n"
            "  next      the next event in this frame or a caller (steps over everything the frame calls)\n"
            "  step out  the first event after this frame has returned (backwards: before it was entered)\n"
            "  continue  run to the next breakpoint, or the end\n"
            "next, step out and continue stop at any breakpoint they pass, like pdb.\n"
            "Live (debug --live), at a tool_start of your own tool: s steps into its function line by line (the\n"
            "Source pane marks the line, Variables shows its real locals); there s/n run one line, r runs it to its\n"
            "end (the next event is its tool_end) and c continues. A recording has no lines to run: there s goes on.\n"
        ),
        (
            "移动按事件走，就像 pdb 按行走。大写字母表示向后：回放总能往回退。\n"
            "  单步      下一个事件，不管它来自哪一层\n"
            "  下一步    这一层或调用方的下一个事件（跳过这一层调用的一切）\n"
            "  跳出      这一层返回之后的第一个事件（向后：进入之前）\n"
            "  继续      跑到下一个断点，或者结尾\n"
            "下一步、跳出和继续都会停在途经的断点上，和 pdb 一样。\n"
            "实时模式（debug --live）下，停在你自己的工具的 tool_start 时：s 逐行进入它的函数（源码窗格标出当前行，\n"
            "变量窗格显示真实的局部变量）；进入后 s/n 运行一行，r 运行到函数结束（下一个事件是它的 tool_end），c 继续。\n"
            "录制的轨迹没有可运行的行：在那里 s 只走到下一个事件。\n"
        ),
    ),
    "help.breakpoints": (
        (
            'Breakpoints (B asks for one; `loopscope debug TRACE --break "..."` sets them from the shell):\n'
            "  tool_error                  an event kind (kind=tool_error works too)\n"
            "  tool=Calculator             where the tool starts running (or is asked for and missing)\n"
            "  iteration=2                 where iteration 2 begins\n"
            "  method=_perform_agent_action  the first event of each call of that method\n"
            "  line=executor/agent_executor.py:95   that source line (b toggles it on the current line)\n"
            "  tools.py:12                 a line of your tool (relative to your agent's folder): live, the run\n"
            "                              stops on it; in a recording, at the tool_start/tool_end of that call\n"
            '  if "25" in tool_input       any event for which the condition holds\n'
            "  tool=Calculator if iteration >= 2    any of the above, narrowed by a condition\n"
            "  temp ...   deleted after it first stops        ignore=N ...   passes N hits before stopping\n"
            "They are saved next to the trace in TRACE.jsonl.breakpoints.json.\n"
        ),
        (
            '断点（B 添加一个；在命令行里用 `loopscope debug TRACE --break "..."` 设置）。写法保持英文：\n'
            "  tool_error                  一种事件类型（kind=tool_error 也可以）\n"
            "  tool=Calculator             这个工具开始运行的地方（或者被请求却不存在的地方）\n"
            "  iteration=2                 第 2 轮开始的地方\n"
            "  method=_perform_agent_action  这个方法每次调用的第一个事件\n"
            "  line=executor/agent_executor.py:95   这一行源码（b 在当前行上开关断点）\n"
            "  tools.py:12                 你的工具里的一行（相对于你的 agent 所在的文件夹）：实时模式下运行停在这一行；\n"
            "                              在录制的轨迹里，停在那次调用的 tool_start/tool_end\n"
            '  if "25" in tool_input       条件成立的任何事件\n'
            "  tool=Calculator if iteration >= 2    上面任何一种，再用条件收窄\n"
            "  temp ...   第一次停下后删除        ignore=N ...   先放过 N 次再停\n"
            "断点保存在轨迹旁边的 TRACE.jsonl.breakpoints.json 里。\n"
        ),
    ),
    "help.conditions": (
        (
            "Conditions compare event fields: == != < <= > >= in, not in, and, or, not, ( ).\n"
            "Values: \"text\" or 'text', numbers, true/false, None, [lists]. Nothing is ever evaluated as Python.\n"
            "Fields: kind seq iteration tool method line file depth frames, and the event's own fields\n"
            "(tool_input, observation, text, prompt, error, is_finish, action.tool ...). A field an event\n"
            "does not have makes the comparison false. `tool` means the requested tool for invalid_tool\n"
            "and action.tool for step. Search (/) is case-insensitive unless the text has capitals.\n"
        ),
        (
            "条件比较事件的字段：== != < <= > >= in、not in、and、or、not、( )。\n"
            "值：\"text\" 或 'text'、数字、true/false、None、[列表]。任何内容都不会被当作 Python 求值。\n"
            "字段：kind seq iteration tool method line file depth frames，以及事件自己的字段\n"
            "（tool_input、observation、text、prompt、error、is_finish、action.tool ……）。事件没有的字段，比较结果为假。\n"
            "对 invalid_tool 来说 `tool` 指被请求的工具，对 step 来说指 action.tool。\n"
            "搜索（/）不区分大小写，除非搜索的文字里有大写字母。\n"
        ),
    ),
    # A key's longer words than fit in the footer, by binding id.
    "help.key.step-forward": (
        "step: to the next event, into whatever is called",
        "单步：走到下一个事件，进入被调用的一切",
    ),
    "help.key.next-forward": (
        "next: step over calls, to the next event in this frame or a caller",
        "下一步：跳过调用，走到这一层或调用方的下一个事件",
    ),
    "help.key.out-forward": ("step out: run until the current frame has returned", "跳出：一直运行到当前这一层返回"),
    "help.key.continue-forward": (
        "continue: run to the next breakpoint (live: pulls the executor on)",
        "继续：跑到下一个断点（实时模式：推动执行器往下跑）",
    ),
    "help.key.step-back": ("step back one event", "后退一个事件"),
    "help.key.next-back": (
        "next, backwards: the previous event in this frame or a caller",
        "下一步（向后）：这一层或调用方的上一个事件",
    ),
    "help.key.out-back": (
        "step out backwards: back to just before this frame was entered",
        "向后跳出：回到刚进入这一层之前",
    ),
    "help.key.continue-back": (
        "reverse continue: back to the previous breakpoint, or the start",
        "向后继续：回到上一个断点，或者开头",
    ),
    "help.key.toggle-breakpoint": (
        "toggle a breakpoint on the current line (on the cursor line when the source pane has focus)",
        "在当前行上开关断点（源码窗格有焦点时是光标所在行）",
    ),
    "help.key.search": ("search the events' text (smart case)", "搜索事件里的文字（智能大小写）"),
    "help.key.fork": (
        "fork: edit this event's model reply or tool observation, re-run the trace, open the fork",
        "分叉：改这个事件的模型回复或工具观察结果，重跑轨迹，打开分叉",
    ),
    "help.key.filter": (
        "filter the timeline: kinds, tool=NAME, iteration=N, `if CONDITION`; the hidden are counted",
        "筛选时间线：事件类型、tool=名字、iteration=N、`if 条件`；隐藏的会计数",
    ),
    "help.key.step-within-filter": (
        "step within the filter: s n r c (and backwards) land only on the events shown",
        "在筛选内移动：s n r c（以及向后）只停在显示出来的事件上",
    ),
    "help.key.edit-prompt": (
        "at a model call: edit its exact prompt, send it again (ctrl+s), see the new reply beside the recorded one; f forks the run with it",
        "在一次模型调用处：编辑它的原样提示词，再发一次（ctrl+s），把新回复和录下的并排对照；f 用它分叉这次运行",
    ),
    "help.key.diff": (
        "diff this run with its parent (a fork's) or with a trace you name, aligned by transition",
        "把这次运行和它的父运行（分叉的）或你指定的轨迹对比，按转移对齐",
    ),
    "help.key.scroll-pane-down": (
        "scroll the shown right-hand pane (narration, variables, prompt …) down, whatever has focus",
        "滚动右边显示的窗格（讲解、变量、提示词 ……）；有焦点的窗格优先",
    ),
    "help.key.scroll-pane-up": ("scroll the shown right-hand pane up", "向上滚动右边显示的窗格"),
    "help.key.wide-source": (
        "wide source: hide the timeline and call stack so long source lines fit (z again: back)",
        "加宽源码：隐藏时间线和调用栈，让长的源码行放得下（再按 z 恢复）",
    ),
    "help.key.tutorials": (
        "tutorials: pick one (or one of its parts) and open it with its narration",
        "教程：选一个（或它的某一部分），带着讲解打开",
    ),
}
