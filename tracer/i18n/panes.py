"""The debugger's panes: their titles, the status line's place and bill, and the sentences the panes say."""

MESSAGES: dict[str, tuple[str, str]] = {
    # Titles.
    "panes.timeline": ("Timeline", "时间线"),
    "panes.timeline_fork": ("Timeline · fork at event {seq}", "时间线 · 在事件 {seq} 分叉"),
    "panes.call_stack": ("Call stack", "调用栈"),
    "panes.source": ("Source", "源码"),
    "panes.variables": ("Variables", "变量"),
    "panes.prompt": ("Prompt", "提示词"),
    "panes.detail": ("Detail", "详情"),
    "panes.breakpoints": ("Breakpoints", "断点"),
    "panes.narration": ("Narration", "讲解"),
    "panes.truncated": ("⚠ truncated: the run did not finish", "⚠ 不完整：这次运行没有结束"),
    "panes.cut_off": ("⚠ truncated: the last line was cut off", "⚠ 不完整：最后一行被截断了"),
    # The source pane.
    "panes.no_source": ("no source line is known for {function}()", "不知道 {function}() 的源码行"),
    "panes.no_source_here": ("no source line is known for this event", "不知道这个事件的源码行"),
    "panes.source_paused": ("your code, paused at this line (live)", "你的代码：实时暂停在这一行"),
    "panes.source_callee": ("your code: the function this event calls", "你的代码：这个事件调用的函数"),
    "panes.source_inferred": ("caller line inferred from the source", "调用方行号由源码推断"),
    # Its title at a tutorial stop whose notes point at a pane below it.
    "panes.narration_above.variables": ("Narration · the variables pane is below", "讲解 · 下方是变量窗格"),
    "panes.narration_above.prompt": ("Narration · the prompt pane is below", "讲解 · 下方是提示词窗格"),
    "panes.narration_above.detail": ("Narration · the detail pane is below", "讲解 · 下方是详情窗格"),
    "panes.narration_above.breakpoints": ("Narration · the breakpoints pane is below", "讲解 · 下方是断点窗格"),
    "panes.narration_above.narration": ("Narration · the narration pane is below", "讲解 · 下方是讲解窗格"),
    # The narration pane (the notes are the tutorial's own, in their language).
    "panes.narration_stop": ("Stop {number}/{stops} · {title}", "停靠点 {number}/{stops} · {title}"),
    "panes.narration_here": (" (at event {seq}; you are at {position})", "（停靠点在事件 {seq}；你在事件 {position}）"),
    "panes.narration_next": (
        "space: next stop (event {following}) · backspace: previous stop",
        "空格：下一个停靠点（事件 {following}）· 退格：上一个停靠点",
    ),
    "panes.narration_before": ("The tutorial has not reached its first stop yet.", "讲解还没到第一个停靠点。"),
    "panes.narration_go": ("Press space to go to it (event {first}).", "按空格过去（事件 {first}）。"),
    # The timeline.
    "panes.unreadable": ("unreadable", "无法读取"),
    "panes.filter_note": (
        "filter: {text} · {shown} shown, {hidden} hidden",
        "筛选：{text} · 显示 {shown} 个，隐藏 {hidden} 个",
    ),
    "panes.current_hidden": ("current event hidden", "当前事件被隐藏"),
    "panes.stepping_within": ("stepping within filter", "在筛选内移动"),
    # The status line: where we are, the loop's state, the bill, the breakers.
    "panes.place": ("event {seq} of {total}", "事件 {seq}/{total}"),
    "panes.place_live": ("event {seq} of {total} so far (live)", "事件 {seq}/{total}（实时，目前）"),
    "panes.loop": ("iteration {iteration} · {kind} · {state}", "第 {iteration} 轮 · {kind} · {state}"),
    "panes.state.planning": ("planning", "规划"),
    "panes.state.acting": ("acting", "行动"),
    "panes.state.observing": ("observing", "观察"),
    "panes.state.summarizing": ("summarizing", "总结"),
    "panes.state.finished": ("finished", "完成"),
    "panes.state.error": ("error", "出错"),
    "panes.bill": ("{tokens} tok{price}", "{tokens} token{price}"),
    "panes.bill_iteration": ("iteration {bill}", "本轮 {bill}"),
    "panes.bill_run": ("run {bill}", "全程 {bill}"),
    "panes.estimated": (" (est.)", "（估算）"),
    "panes.breakers": ("breakers:", "熔断器："),
    "panes.breaker.open": ("open", "打开"),
    "panes.breaker.half_open": ("half-open", "半开"),
    "panes.breaker.closed": ("closed", "关闭"),
}
