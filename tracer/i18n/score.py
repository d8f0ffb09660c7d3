"""Words of `loopscope score` and of imported scores: what was recorded, what was refused."""

MESSAGES: dict[str, tuple[str, str]] = {
    "score.recorded": (
        "scored {trace}: {name} = {value} ({count} score(s) on this run now)",
        "已为 {trace} 打分：{name} = {value}（这次运行现有 {count} 个分数）",
    ),
    "score.recorded_event": (
        "scored {trace} event #{event} ({kind}): {name} = {value} ({count} score(s) on this event now)",
        "已为 {trace} 的事件 #{event}（{kind}）打分：{name} = {value}（这个事件现有 {count} 个分数）",
    ),
    "score.no_event": (
        "{trace} has no event #{event} (its events are #0 to #{last}); the debugger's status line shows each "
        "event's number",
        "{trace} 没有事件 #{event}（它的事件是 #0 到 #{last}）；调试器的状态栏显示每个事件的编号",
    ),
    "score.not_a_trace": (
        "{trace} is not a loopscope trace ({reason}); score a trace written by loopscope record or import",
        "{trace} 不是 loopscope trace（{reason}）；请给 loopscope record 或 import 写出的 trace 打分",
    ),
    "score.cut_mid_line": (
        "{trace} ends in the middle of a line (the run was cut off); a score would hide that, so none was added",
        "{trace} 在一行中间结束（运行被中断）；打分会掩盖这一点，因此没有添加",
    ),
    "score.bad": ("{reason}", "{reason}"),
    # The debugger's Detail pane, at the run's first event and at its end: the run's scores.
    "score.detail.label": ("scores", "分数"),
    "score.detail.given": ("from {source}, {at}", "来自 {source}，{at}"),
    # ...and at the event an imported child run became: the feedback given on that model or tool call.
    "score.detail.event_label": ("event scores", "事件分数"),
}
