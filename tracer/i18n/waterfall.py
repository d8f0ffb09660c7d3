"""Words of the waterfall (the debugger's pane and the HTML page): lane names and one line per bar."""

MESSAGES: dict[str, tuple[str, str]] = {
    # A lane is named for its category, numbered when a category has several ("tool 2", "tool 8+": the last
    # lane a category may have, holding every call that overlaps more).
    "waterfall.lane.model": ("model", "模型"),
    "waterfall.lane.tool": ("tool", "工具"),
    "waterfall.lane.waits": ("waits", "等待"),
    "waterfall.lane.events": ("events", "事件"),
    "waterfall.lane.numbered": ("{lane} {number}", "{lane} {number}"),
    "waterfall.lane.overflow": ("{lane} {number}+", "{lane} {number}+"),
    # What a bar is, before its label from the trace ("model gpt-4o", "retry Search").
    "waterfall.kind.model": ("model", "模型"),
    "waterfall.kind.summary": ("summary", "摘要"),
    "waterfall.kind.tool": ("tool", "工具"),
    "waterfall.kind.retry": ("retry", "重试"),
    "waterfall.kind.rate_limit": ("rate limit", "限流等待"),
    # A mark in the events lane, named by the event that made it.
    "waterfall.point.context_trimmed": ("context trimmed", "上下文已裁剪"),
    "waterfall.point.chain_error": ("chain error", "运行出错"),
    "waterfall.point.parse_error": ("parse error", "解析出错"),
    "waterfall.point.invalid_tool": ("invalid tool", "无效工具"),
    "waterfall.point.plan_error": ("plan error", "规划出错"),
    "waterfall.point.refusal": ("refusal", "模型拒绝"),
    "waterfall.point.breaker_open": ("breaker open", "熔断器打开"),
    "waterfall.point.limit_reached": ("limit reached", "达到上限"),
    "waterfall.point.degrade": ("degrade", "降级"),
    "waterfall.bar.event": ("event {seq}", "事件 {seq}"),
    "waterfall.bar.events": ("events {first}–{last}", "事件 {first}–{last}"),
    "waterfall.bar.failed": ("failed", "失败"),
    "waterfall.bar.unfinished": ("unfinished", "未结束"),
}
