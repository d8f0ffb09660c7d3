"""The debugger's status line: where a motion landed and why, and what each key's flow says it did."""

MESSAGES: dict[str, tuple[str, str]] = {
    # The motions, as a status message names them (tracer/debug/session.py: motion_name).
    "debugger.motion.step": ("step", "单步"),
    "debugger.motion.next": ("next", "下一步"),
    "debugger.motion.out": ("step out", "跳出"),
    "debugger.motion.continue": ("continue", "继续"),
    "debugger.motion.step.back": ("step backwards", "单步（向后）"),
    "debugger.motion.next.back": ("next backwards", "下一步（向后）"),
    "debugger.motion.out.back": ("step out backwards", "跳出（向后）"),
    "debugger.motion.continue.back": ("continue backwards", "继续（向后）"),
    "debugger.opening": (  # no-break spaces: the four keys are one word a wrapped line never splits
        "S\u00a0N\u00a0R\u00a0C: the same motions backwards · ? lists every key",
        "S\u00a0N\u00a0R\u00a0C：同样的移动，向后 · ? 列出所有按键",
    ),
    # Where a motion landed (DebugSession.land).
    "debugger.landed": ("{motion} → event {seq}", "{motion} → 事件 {seq}"),
    "debugger.at_breakpoint": ("{motion}: stopped at breakpoint {names}", "{motion}：停在断点 {names}"),
    "debugger.breakpoint_hits": ("#{number} {spec} (hit {hits})", "#{number} {spec}（命中 {hits} 次）"),
    "debugger.and": ("{first}, {then}", "{first}、{then}"),
    "debugger.reached_last": ("{motion}: reached the last event", "{motion}：到了最后一个事件"),
    "debugger.reached_last_already": (
        "{motion}: reached the last event (already there)",
        "{motion}：到了最后一个事件（已经在这里）",
    ),
    "debugger.reached_first": ("{motion}: reached the first event", "{motion}：到了第一个事件"),
    "debugger.reached_first_already": (
        "{motion}: reached the first event (already there)",
        "{motion}：到了第一个事件（已经在这里）",
    ),
    "debugger.left_frame": ("{motion}: left the frame", "{motion}：离开了这一层"),
    "debugger.left_frame_in": (
        "{motion}: left the frame, now in {function}()",
        "{motion}：离开了这一层，现在在 {function}()",
    ),
    "debugger.paused_at": (
        "{motion}: stopped at event {seq}, breakpoint conditions checked up to here (esc)",
        "{motion}：停在事件 {seq}，断点条件已检查到这里（esc）",
    ),
    "debugger.paused_at_start": (
        "{motion}: stopped where it started, breakpoint conditions checked up to here (esc)",
        "{motion}：停在出发处，断点条件已检查到这里（esc）",
    ),
    # Inside a user's tool function (live).
    "debugger.at_breakpoint_in": (
        "{motion}: stopped at breakpoint {names} in {function}()",
        "{motion}：停在 {function}() 里的断点 {names}",
    ),
    "debugger.at_line": ("{motion}: {function}() line {line}", "{motion}：{function}() 第 {line} 行"),
    "debugger.the_tool": ("the tool", "这个工具"),
    "debugger.done": (
        "{motion}: {name} is done → event {seq} ({kind})",
        "{motion}：{name} 已返回 → 事件 {seq}（{kind}）",
    ),
    "debugger.done_other_call": (
        "{motion}: {name} is done → event {seq} (another call's {kind}; {name}'s own comes in turn)",
        "{motion}：{name} 已返回 → 事件 {seq}（另一个调用的 {kind}；{name} 自己的事件按顺序稍后到来）",
    ),
    "debugger.other_call_first": (
        "{motion}: → event {seq} (another call's {kind}); {name} has not finished: its lines come in turn",
        "{motion}：→ 事件 {seq}（另一个调用的 {kind}）；{name} 还没有结束：它的行按顺序稍后到来",
    ),
    "debugger.never_ran": (
        "{motion}: {name} never ran: its arguments did not fit → event {seq} ({kind})",
        "{motion}：{name} 没有运行：参数不符合它的要求 → 事件 {seq}（{kind}）",
    ),
    "debugger.raised": (
        "{motion}: {name} raised {error} → event {seq} ({kind})",
        "{motion}：{name} 抛出了 {error} → 事件 {seq}（{kind}）",
    ),
    "debugger.into_needs_live": (
        "stepping into {name} line by line needs live mode: a recording has its events, not the function's lines "
        "(loopscope debug --live AGENT --model replay:TRACE)",
        "逐行进入 {name} 需要实时模式：录制的轨迹只有事件，没有函数的每一行"
        "（loopscope debug --live AGENT --model replay:TRACE）",
    ),
    "debugger.into_already_ran": (
        "this call of {name} has already run: s steps into a function at the newest event",
        "这次 {name} 调用已经运行过了：只能在最新的事件处进入函数",
    ),
    "debugger.into_refused": ("not stepping into it: {problem}", "没有进入函数：{problem}"),
    # Why `s` at a tool_start does not step into the function (tracer/debug: step_into, live_run, framework_live).
    "debugger.into.no_function": ("no Python function is known for this tool", "这个工具没有已知的 Python 函数"),
    "debugger.into.ours": (
        "{name} is loopscope's own code ({file}); stepping into a function is for your tools",
        "{name} 是 loopscope 自己的代码（{file}）；进入函数是为你自己的工具准备的",
    ),
    "debugger.into.not_a_tool_function": (
        "{tool} is not one of this agent's Python tool functions",
        "{tool} 不是这个智能体的 Python 工具函数",
    ),
    "debugger.into.other_call": (
        "call {call} is being stepped into: its lines come first",
        "正在逐行进入调用 {call}：先看完它的行",
    ),
    "debugger.into.not_rerun": (
        "{tool} is not re-run here (a non-deterministic tool answers from the recording); with --model it runs, "
        "and s steps into it",
        "{tool} 在这里不会重新运行（非确定性的工具用录制的结果回答）；加上 --model 它会运行，s 就能进入它",
    ),
    "debugger.into.own_events": (
        "{tool}'s function yields events of its own: s steps through them as events",
        "{tool} 的函数会产生自己的事件：s 把它们当作事件逐个走过",
    ),
    "debugger.into.timeout": (
        "{tool} has a timeout, so it runs in a thread of its own, which is not traced",
        "{tool} 设有超时，所以在自己的线程里运行，那个线程不被跟踪",
    ),
    "debugger.unreachable_outside": (
        "no event can reach {where}: it is outside every function the loop calls",
        "没有事件能到达 {where}：它不在循环调用的任何函数里",
    ),
    "debugger.unreachable_file": (
        "no event can reach {where}: {file} holds no function the loop calls",
        "没有事件能到达 {where}：{file} 里没有循环调用的函数",
    ),
    # A breakpoint's line in the breakpoints pane (tracer/debug/breakpoints.py).
    "debugger.bp.hits": ("hits {hits}", "命中 {hits} 次"),
    "debugger.bp.ignore": ("ignore next {count}", "忽略接下来的 {count} 次"),
    "debugger.bp.temporary": ("temporary", "临时"),
    "debugger.bp.disabled": ("disabled", "已停用"),
    "debugger.bp.none": (
        "No breakpoints. b sets one on the current line; B adds any kind:",
        "没有断点。b 在当前行设一个；B 添加任何一种：",
    ),
    "debugger.bp.keys": (
        "e enable/disable · x delete · t temporary · +/- ignore count (focus this pane)",
        "e 启用/停用 · x 删除 · t 临时 · +/- 忽略次数（先聚焦这个窗格）",
    ),
    # How a live run ended (tracer/debug/live_run.py).
    "debugger.run_finished": ("the run finished", "运行结束了"),
    "debugger.run_stopped": ("the run was stopped", "运行被停止了"),
    "debugger.run_raised": ("the run raised {error}", "运行抛出了 {error}"),
    "debugger.run_raised_a": ("the run raised {error_type}: {error}", "运行抛出了 {error_type}：{error}"),
    # Why a recording's run cannot be re-executed for its real locals (tracer/debug/reenactment.py).
    "debugger.reenact_too_long": (
        "the trace has more than {limit} events; re-executing it would take too long",
        "轨迹超过 {limit} 个事件，重新执行太久了",
    ),
    "debugger.reenact_no_scenario": (
        "the trace's header names no scenario, so its run cannot be re-executed",
        "轨迹的文件头没有写场景，所以无法重新执行这次运行",
    ),
    "debugger.reenact_failed": ("the run could not be re-executed ({error})", "这次运行无法重新执行（{error}）"),
    "debugger.reenact_ended": (
        "the re-executed run ended after {seq} events ({outcome})",
        "重新执行的运行在 {seq} 个事件之后就结束了（{outcome}）",
    ),
    "debugger.reenact_unreadable": (
        "event {seq} of the recording cannot be read ({error})",
        "录制里的事件 {seq} 读不出来（{error}）",
    ),
    "debugger.reenact_other_code": (
        "the recording was made by other code ({file}), so its locals cannot be re-created here",
        "这份录制是别的代码（{file}）做的，所以它的局部变量没法在这里重现",
    ),
    "debugger.reenact_differs": (
        "the re-executed run differs from the recording at event {seq} ({kind} at line {line} vs {recorded_kind} "
        "at line {recorded_line}): the executor changed since it was recorded",
        "重新执行的运行在事件 {seq} 和录制不同（{kind} 在第 {line} 行，录制是 {recorded_kind} 在第 {recorded_line} 行）："
        "录制之后执行器改过了",
    ),
    "debugger.reenact_closed": ("the trace was closed", "轨迹已经关闭"),
    # The stepping flow.
    "debugger.moves_waiting": ("{reason} · {count} move(s) waiting", "{reason} · 有 {count} 个移动在等待"),
    "debugger.indexing": ("indexing the trace…", "正在为轨迹建索引…"),
    "debugger.running_function": (
        "running your tool function live… (esc pauses)",
        "正在实时运行你的工具函数…（esc 暂停）",
    ),
    "debugger.running_live": ("running the executor live… (esc pauses)", "正在实时运行执行器…（esc 暂停）"),
    "debugger.running_live_count": (
        "running the executor live… (esc pauses) · {count} events",
        "正在实时运行执行器…（esc 暂停）· {count} 个事件",
    ),
    "debugger.checking_conditions": (
        "{motion}: checking breakpoint conditions event by event… (esc stops)",
        "{motion}：逐个事件检查断点条件…（esc 停止）",
    ),
    "debugger.no_shown_further": (
        "no shown event further that way (F changes the filter)",
        "这个方向没有更多显示出来的事件了（F 改筛选）",
    ),
    "debugger.first_event": ("first event", "第一个事件"),
    "debugger.last_event": ("last event", "最后一个事件"),
    "debugger.last_event_so_far": (
        "last event so far (c runs the live executor on)",
        "目前的最后一个事件（c 让实时执行器继续跑）",
    ),
    "debugger.outermost_frame": ("already at the outermost frame", "已经在最外层栈帧"),
    "debugger.events_frame": ("already at the event's frame", "已经在事件所在的栈帧"),
    "debugger.frame": ("frame {function}()", "栈帧 {function}()"),
    "debugger.no_stops": (
        "no tutorial stops in this session (loopscope tutorial NAME has them)",
        "这次会话没有讲解停靠点（`loopscope tutorial 名字` 才有）",
    ),
    "debugger.no_further_stop": ("no further stop that way", "这个方向没有停靠点了"),
    "debugger.tutorial_stop": ("tutorial stop at event {seq}", "讲解停靠点：事件 {seq}"),
    "debugger.paused": ("paused at event {seq}", "暂停在事件 {seq}"),
    "debugger.picked": ("event {seq}", "事件 {seq}"),
    "debugger.wide_source": (
        "z: wide source; the timeline is hidden (z brings it back)",
        "z：加宽源码，时间线已隐藏（再按 z 恢复）",
    ),
    "debugger.timeline_back": ("z: the timeline is back", "z：时间线回来了"),
    "debugger.warning": ("warning: {text}", "警告：{text}"),
    "debugger.wait": ("wait: {reason}", "请稍等：{reason}"),
    # How to write a breakpoint and a filter (the boxes' hints, and the errors that quote them).
    "debugger.spec_help": (
        "write KIND (e.g. tool_error), tool=NAME, iteration=N, method=NAME, line=[FILE:]N "
        "or `if CONDITION`; add `if CONDITION` to any of them; prefix `temp` or `ignore=N`",
        "写 KIND（如 tool_error）、tool=NAME、iteration=N、method=NAME、line=[FILE:]N 或 `if CONDITION`；"
        "任何一种后面都可以加 `if CONDITION`；前面可以加 `temp` 或 `ignore=N`",
    ),
    "debugger.filter_help": (
        "KIND…, tool=NAME, iteration=N (or N-M), and/or `if CONDITION` (as in breakpoints); "
        "a list of one sort shows any of them, different sorts must all hold; empty clears",
        "KIND…、tool=NAME、iteration=N（或 N-M），以及/或者 `if CONDITION`（和断点一样）；"
        "同一种列几个显示其中任何一个，不同种类必须同时满足；留空则清除",
    ),
    # Go to, search, breakpoints: what the answers did.
    "debugger.type_event_number": ("type an event number from 0 to {last}", "输入 0 到 {last} 之间的事件编号"),
    "debugger.went_to": ("went to event {seq}", "跳到了事件 {seq}"),
    "debugger.no_search": ("no search yet: press / first", "还没有搜索：先按 /"),
    "debugger.searching": ("searching for {text}…", "正在搜索 {text}…"),
    "debugger.not_found": ("no event contains {text}", "没有事件包含 {text}"),
    "debugger.found": (
        "{text} found in event {seq} (] next, [ previous)",
        "在事件 {seq} 找到 {text}（] 下一个，[ 上一个）",
    ),
    "debugger.breakpoint_added": ("breakpoint #{number} {spec}", "断点 #{number} {spec}"),
    "debugger.no_line_here": ("no source line here to put a breakpoint on", "这里没有可以下断点的源码行"),
    "debugger.line_breakpoint_set": ("breakpoint #{number} set on {where}", "断点 #{number} 设在 {where}"),
    "debugger.line_breakpoint_removed": ("breakpoint on {where} removed", "已删除 {where} 上的断点"),
    # Filtering.
    "debugger.filter_not_ready": (
        "the trace is still being indexed: filter once it is ready",
        "轨迹还在建索引：建好后再筛选",
    ),
    "debugger.filtering": ("filtering: {text}…", "正在筛选：{text}…"),
    "debugger.filter_cleared": ("filter cleared: every event is shown", "已清除筛选：显示所有事件"),
    "debugger.filter_showing": (
        "showing {shown} of {total} events, {hidden} hidden (s n r c still visit every event; W: only these)",
        "显示 {total} 个事件中的 {shown} 个，隐藏 {hidden} 个（s n r c 仍经过每个事件；W：只走这些）",
    ),
    "debugger.filter_showing_within": (
        "showing {shown} of {total} events, {hidden} hidden",
        "显示 {total} 个事件中的 {shown} 个，隐藏 {hidden} 个",
    ),
    "debugger.within_filter": (
        "stepping within the filter: s n r c land only on shown events",
        "在筛选内移动：s n r c 只停在显示出来的事件上",
    ),
    "debugger.within_no_filter": (
        "stepping within the filter: s n r c land only on shown events (no filter yet: F sets one)",
        "在筛选内移动：s n r c 只停在显示出来的事件上（还没有筛选：按 F 设一个）",
    ),
    "debugger.within_off": (
        "stepping visits every event again (hidden ones too)",
        "移动重新经过每个事件（包括隐藏的）",
    ),
    # Forking, diffing and the playground.
    "debugger.forkable": (
        "f forks {models} (a reply) or {tools} (an observation)",
        "f 在 {models} 处分叉（改回复）或在 {tools} 处分叉（改观察结果）",
    ),
    "debugger.fork_needs_trace": (
        "forking needs a recorded trace: finish the live run, then `loopscope debug` its file",
        "分叉需要录好的轨迹：先结束实时运行，再用 `loopscope debug` 打开它的文件",
    ),
    "debugger.cannot_fork": ("cannot fork here: {problem}", "这里不能分叉：{problem}"),
    "debugger.fork_cancelled": ("fork cancelled", "已取消分叉"),
    "debugger.forking_reply": (
        "forking at event {seq}: re-running the trace with the new reply…",
        "在事件 {seq} 分叉：用新的回复重跑轨迹…",
    ),
    "debugger.forking_observation": (
        "forking at event {seq}: re-running the trace with the new observation…",
        "在事件 {seq} 分叉：用新的观察结果重跑轨迹…",
    ),
    "debugger.fork_failed": ("fork failed: {problem}", "分叉失败：{problem}"),
    "debugger.forked_into": ("forked into {path}", "已分叉到 {path}"),
    "debugger.forked_reply": (
        "new reply at event {seq} ({kind}) · D: diff with parent",
        "事件 {seq}（{kind}）换成了新的回复 · D：与父运行对比",
    ),
    "debugger.forked_observation": (
        "new observation at event {seq} ({kind}) · D: diff with parent",
        "事件 {seq}（{kind}）换成了新的观察结果 · D：与父运行对比",
    ),
    "debugger.fork_stopped_early": ("the fork stopped early: {problem}", "分叉提前停止了：{problem}"),
    "debugger.fork_at_calls_stopped": ("stopped at {calls}: its prompt changed", "停在{calls}：它的提示词变了"),
    "debugger.fork_at_call_live": (
        "the live model answered {calls}: the prompt changed",
        "实时模型回答了{calls}：提示词变了",
    ),
    "debugger.fork_at_calls_live": (
        "the live model answered {calls}: the prompts changed",
        "实时模型回答了{calls}：提示词变了",
    ),
    "debugger.fork_at_call_stale": (
        "warning, stale: {calls} got a reply recorded for another prompt",
        "警告，已过时：{calls}得到的是为另一个提示词录下的回复",
    ),
    "debugger.fork_at_calls_stale": (
        "warning, stale: {calls} got replies recorded for other prompts",
        "警告，已过时：{calls}得到的是为其他提示词录下的回复",
    ),
    "debugger.model_call_one": ("model call {calls}", "模型调用 {calls} "),
    "debugger.model_call_many": ("model calls {calls}", "模型调用 {calls} "),
    "debugger.model_call": ("#{call}", "#{call}"),
    "debugger.model_call_at": ("#{call} (event {seq})", "#{call}（事件 {seq}）"),
    "debugger.cannot_diff": ("cannot diff: {problem}", "无法对比：{problem}"),
    "debugger.diff_parent": ("the parent of this fork", "这个分叉的父运行"),
    "debugger.diff_named": ("the trace you named", "你指定的轨迹"),
    "debugger.diff_same": ("diff with {role}: they take the same transitions", "与{role}对比：走的是同样的转移"),
    "debugger.diff_parted": ("diff with {role}: they part at transition {at}", "与{role}对比：在第 {at} 个转移处分开"),
    "debugger.diff_title": ("A = {role} · B = the run open here", "A = {role} · B = 这里打开的运行"),
    "debugger.diff_hint": (
        "the runs are aligned by transition, as `loopscope diff` does",
        "两次运行按转移对齐，和 `loopscope diff` 一样",
    ),
    "debugger.diff_hint_missing": (
        "the parent {parent} named in this fork's header is not there; the runs are aligned by transition, "
        "as `loopscope diff` does",
        "这个分叉的文件头写的父运行 {parent} 不在了；两次运行按转移对齐，和 `loopscope diff` 一样",
    ),
    "debugger.playground_needs_trace": (
        "the playground needs a recorded trace: finish the live run, then `loopscope debug` its file",
        "试验场需要录好的轨迹：先结束实时运行，再用 `loopscope debug` 打开它的文件",
    ),
    "debugger.playground_where": ("e works at a model call: {problem}", "e 只在模型调用处可用：{problem}"),
    "debugger.playground_closed": ("playground closed", "已关闭试验场"),
    # The diff box (D).
    "debugger.diff_box": ("Diff", "对比"),
    "debugger.diff_keys": ("esc closes · ↑/↓ pgup/pgdn scroll", "esc 关闭 · ↑/↓ pgup/pgdn 滚动"),
    # The waterfall (w).
    "debugger.waterfall_shown": ("waterfall shown (w hides it)", "已显示瀑布图（按 w 隐藏）"),
    "debugger.waterfall_hidden": ("waterfall hidden (w shows it)", "瀑布图已隐藏（按 w 显示）"),
    # Tutorials: opening them.
    "debugger.no_tutorial": ("no tutorial opened", "没有打开教程"),
    "debugger.cannot_open_tutorial": ("cannot open tutorial {name}: {problem}", "打不开教程 {name}：{problem}"),
    "debugger.end_of_part": ("end of that part", "上一部分结束"),
    "debugger.back_a_part": ("back to the previous part's last stop", "回到上一部分的最后一个停靠点"),
    "debugger.tutorial_end": (
        "End of the tutorial: T opens another (the narration lists them)",
        "教程到此结束：按 T 打开另一个（讲解里列出了全部教程）",
    ),
    "debugger.tutorial_opened": (
        "tutorial {name}: stop {stop}/{stops} · space walks the stops",
        "教程 {name}：停靠点 {stop}/{stops} · 按空格逐个走",
    ),
    "debugger.tutorial_part_opened": (
        "tutorial {name}, part {part} of {parts}: stop {stop}/{stops} · space walks the stops",
        "教程 {name}，第 {part}/{parts} 部分：停靠点 {stop}/{stops} · 按空格逐个走",
    ),
    "debugger.other_part": ("T picks another part", "按 T 换一个部分"),
    "debugger.your_agent": ("your agent: {source}", "你的 agent：{source}"),
    "debugger.own_agent_next": (
        "your agent is {source}. Next, in {folder}: `{replay}` (the real locals at every event), "
        "`{live}` (step into quote() again)",
        "你的 agent 在 {source}。在 {folder} 里接着试试：`{replay}`（每个事件上的真实局部变量），"
        "`{live}`（再走进一次 quote()）",
    ),
    # The runs table's debugger.
    "debugger.from_runs": (
        "opened from the runs table · q goes back to it · {shown}",
        "从运行列表打开 · 按 q 回到列表 · {shown}",
    ),
}
