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
    # The Variables pane (model and tool text in it is never translated).
    "panes.indexing_state": (
        "Indexing the trace… the loop state appears when it is done.",
        "正在为轨迹建索引……完成后这里显示循环的状态。",
    ),
    "panes.locals_follow": (
        "(the real locals follow: re-executing the run, {done} of {total} events…)",
        "（真实的局部变量随后就到：正在重新执行这次运行，{total} 个事件中已到 {done} 个…）",
    ),
    "panes.no_real_locals": ("(no real locals: {why})", "（没有真实的局部变量：{why}）"),
    "panes.call_variables": (
        "_call's variables at this event, rebuilt from the recorded events",
        "_call 在这个事件处的变量，由录下的事件重建",
    ),
    "panes.not_planned": ("(not planned yet in this iteration)", "（这一轮还没有规划）"),
    "panes.not_checked": ("(not checked yet in this iteration)", "（这一轮还没有检查）"),
    "panes.at_event": ("(event {seq})", "（事件 {seq}）"),
    "panes.finish_checked": (
        "(isinstance(output, AgentFinish), event {seq})",
        "（isinstance(output, AgentFinish)，事件 {seq}）",
    ),
    "panes.graph_edge_checked": (
        "(the edge after the model node, event {seq})",
        "（模型节点之后的边，事件 {seq}）",
    ),
    "panes.source.outside": ("source not shown: {path} is outside {root}", "不显示源码：{path} 在 {root} 之外"),
    "panes.source.missing": (
        "source not found: {path} (it is not under {root})",
        "找不到源码：{path}（不在 {root} 之下）",
    ),
    "panes.source.not_python": ("source not shown: {path} is not a Python file", "不显示源码：{path} 不是 Python 文件"),
    "panes.source.too_large": ("source not shown: {path} is larger than 2 MB", "不显示源码：{path} 大于 2 MB"),
    "panes.source.user_missing": (
        "source not found: {path} (recorded on another machine? open the debugger from the folder that holds it)",
        "找不到源码：{path}（在别的机器上录制的？请在包含它的文件夹里打开调试器）",
    ),
    "panes.source.changed": (
        "{path} changed since this trace was recorded: lines may not match what ran",
        "{path} 在录制这个 trace 之后改过了：显示的行可能不是当时运行的",
    ),
    "panes.source.no_line": (
        "{path} changed since this trace was recorded: it has no line {line} now",
        "{path} 在录制这个 trace 之后改过了：现在没有第 {line} 行",
    ),
    "panes.source.moved": (
        "{path} changed since this trace was recorded: line {line} is no longer in {function}(), "
        "so the line shown may not be what ran",
        "{path} 在录制这个 trace 之后改过了：第 {line} 行已不在 {function}() 里，显示的行可能不是当时运行的",
    ),
    "panes.source.framework_step": (
        "{function}: a step inside {framework}'s own loop, not a line of your code; "
        "at a tool's events this pane shows your tool",
        "{function}：{framework} 自己循环里的一步，不是你代码里的一行；到了工具的事件，这个窗格会显示你的工具",
    ),
    "panes.no_chain_start": ("(no chain_start yet)", "（还没有 chain_start）"),
    "panes.earlier": ("… {count} earlier", "… 更早的 {count} 个"),
    "panes.no_observation": ("(none: {kind})", "（没有：{kind}）"),
    "panes.observation_at": ("(event {seq}; the next prompt ends with it)", "（事件 {seq}；下一次的提示词以它结尾）"),
    "panes.locals_live": (
        "Real locals captured when this event was yielded; u/d: caller/callee frame",
        "真实的局部变量，在这个事件被 yield 时取下；u/d：调用方/被调用方栈帧",
    ),
    "panes.locals_replayed": (
        "Real locals of the run re-executed on the recorded replies, paused at this event; u/d: caller/callee frame",
        "真实的局部变量，来自用录下的回复重新执行的这次运行，停在这个事件处；u/d：调用方/被调用方栈帧",
    ),
    "panes.locals_inside": (
        "Real locals of {function}(), paused before line {line} runs (live); u/d: caller/callee frame",
        "{function}() 的真实局部变量，停在第 {line} 行执行之前（实时）；u/d：调用方/被调用方栈帧",
    ),
    "panes.locals_count": ("({count} locals)", "（{count} 个局部变量）"),
    "panes.frame_not_captured": (
        "(no locals were captured for this frame at this event)",
        "（这个事件处没有取下这个栈帧的局部变量）",
    ),
    "panes.callee_not_called": (
        "(not called yet: s steps into {function}() and shows its locals line by line)",
        "（还没有被调用：按 s 进入 {function}()，逐行显示它的局部变量）",
    ),
    "panes.callee_not_running": (
        "({function}() is not running at this event: it has no locals here)",
        "（这个事件处 {function}() 没有在运行：这里没有它的局部变量）",
    ),
    # The Prompt pane (the prompt and the reply are the run's: never translated).
    "panes.indexing_prompt": (
        "Indexing the trace… the prompt appears when it is done.",
        "正在为轨迹建索引……完成后这里显示提示词。",
    ),
    "panes.no_call_yet": ("No model call has happened yet at this event.", "到这个事件为止还没有调用过模型。"),
    "panes.no_call_yet_first": (
        "No model call has happened yet at this event; the first one is event {seq}.",
        "到这个事件为止还没有调用过模型；第一次调用是事件 {seq}。",
    ),
    "panes.not_llm_start": ("event {seq} is a {kind}, not an llm_start", "事件 {seq} 是 {kind}，不是 llm_start"),
    "panes.prompt_call": (
        "{caller}() call #{number} · event {seq} · {chars} chars · stop {stop}",
        "{caller}() 第 {number} 次调用 · 事件 {seq} · {chars} 个字符 · 停止序列 {stop}",
    ),
    "panes.last_call_before": ("the last call before event {seq}", "事件 {seq} 之前的最后一次调用"),
    "panes.template": ("template", "模板"),
    "panes.scratchpad": ("scratchpad", "草稿区（scratchpad）"),
    "panes.new_since": ("new since call #{number} (event {seq})", "第 {number} 次调用（事件 {seq}）之后新增的"),
    "panes.prompt_changed": (
        "This prompt does not simply extend the previous one; what changed:",
        "这次的提示词并不只是在上一次后面追加；改动如下：",
    ),
    "panes.diff_legend": (
        "- │ only in the previous call's prompt · + │ only in this one",
        "- │ 只在上一次调用的提示词里 · + │ 只在这一次的里",
    ),
    "panes.too_long_to_diff": ("(too long to diff line by line)", "（太长，无法逐行对比）"),
    "panes.no_reply_yet": ("(the reply has not come back yet at this event)", "（到这个事件为止，回复还没有回来）"),
    "panes.reply": ("Reply (event {seq}), exactly as it came back:", "回复（事件 {seq}），原样照录："),
    "panes.graph_state": (
        "The graph state at this event, rebuilt from the recorded events",
        "这个事件处的图状态（graph state），由录下的事件重建",
    ),
    "panes.framework_state": (
        "The messages of the {framework} run at this event, rebuilt from the recorded events",
        "这个事件处 {framework} 运行中的消息，由录下的事件重建",
    ),
    # The Prompt pane at a context budget's cut.
    "panes.budget.trimmed": ("history trimmed ({reason})", "历史被裁剪（{reason}）"),
    "panes.budget.summarized": ("history summarized", "历史被摘要"),
    "panes.budget.sizes": (
        " · event {seq} · {before} → {after} messages · {tokens_before} → {tokens_after} tokens",
        " · 事件 {seq} · {before} → {after} 条消息 · {tokens_before} → {tokens_after} token",
    ),
    "panes.budget.dropped": ("dropped", "丢掉的"),
    "panes.budget.replaced": ("replaced", "被替换的"),
    "panes.budget.summary": ("the summary in their place", "替代它们的摘要"),
    "panes.budget.sends": ("what the next call sends", "下一次调用发送的"),
    "panes.budget.before": ("Before: the {n} oldest messages after the question", "之前：问题之后最早的 {n} 条消息"),
    "panes.budget.after": ("After: one message instead", "之后：换成一条消息"),
    "panes.budget.next": ("The next call (event {seq}) sends:", "下一次调用（事件 {seq}）发送："),
    # The Detail pane: the envelope's names (a payload field keeps its own: conditions and traces use it).
    "panes.field.kind": ("kind", "类型"),
    "panes.field.seq": ("seq", "序号"),
    "panes.field.run_id": ("run_id", "运行 id"),
    "panes.field.frames": ("frames", "调用栈"),
    "panes.field.source": ("source", "源码"),
    "panes.field.tokens": ("tokens", "token"),
    "panes.chars": ("({count} chars)", "（{count} 个字符）"),
    "panes.cannot_read": ("event {seq} cannot be read:", "事件 {seq} 无法读取："),
    # A no-break space in the Chinese: the unit stays with its number.
    "panes.detail_place": ("iteration {iteration}    t {t}s", "第 {iteration} 轮    时间 {t}\u00a0秒"),
    "panes.detail_source": ("{where} in {function}()", "{where}，在 {function}() 里"),
    # One model call's bill.
    "panes.call_cost": (
        "{prompt} prompt + {completion} completion tokens, {source} · {price}",
        "提示词 {prompt} + 补全 {completion} 个 token，{source} · {price}",
    ),
    "panes.cost_estimated": ("estimated (no usage recorded)", "估算（没有记录 usage）"),
    "panes.cost_from_usage": ("from the endpoint's usage", "来自端点返回的 usage"),
    "panes.no_price": (
        "no price (no price for {model}: add it to a {file} file)",
        "没有价格（{model} 没有价格：把它加进 {file} 文件）",
    ),
    "panes.price_estimate": (
        "{dollars} (an estimate: {free} costs nothing, priced as {entry})",
        "{dollars}（估算：{free} 不收费，按 {entry} 的价格计）",
    ),
    # The waterfall (w): its title, lanes, axis and the line under them.
    "panes.waterfall_lane": ("Waterfall · {count} lane", "瀑布图 · {count} 条泳道"),
    "panes.waterfall_lanes": ("Waterfall · {count} lanes", "瀑布图 · {count} 条泳道"),
    "panes.waterfall_indexing": (
        "Indexing the trace… the waterfall appears when it is done.",
        "正在为轨迹建索引……完成后这里显示瀑布图。",
    ),
    "panes.waterfall_reading": ("reading the times of {count} events…", "正在读取 {count} 个事件的时间…"),
    "panes.waterfall_read": (
        "reading the times of {count} events… {percent}%",
        "正在读取 {count} 个事件的时间… {percent}%",
    ),
    "panes.waterfall_time": ("time", "时间"),
    "panes.waterfall_empty": ("no model or tool calls in this run", "这次运行没有模型或工具调用"),
    "panes.waterfall_between": ("event {seq} is between bars", "事件 {seq} 不在任何条上"),
    "panes.waterfall_keys": (
        "←/→ bars · ↑/↓ lanes · +/- zoom · 0 whole run · w hides",
        "←/→ 条 · ↑/↓ 泳道 · +/- 缩放 · 0 整个运行 · w 隐藏",
    ),
    "panes.lane.model": ("model", "模型"),
    "panes.lane.tool": ("tool", "工具"),
    "panes.lane.waits": ("waits", "等待"),
    "panes.lane.events": ("events", "事件"),
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
    # The call stack's notes.
    "panes.stack.event": ("this event", "此事件"),
    "panes.stack.callee": ("your function, which it calls", "它调用的你的函数"),
    "panes.stack.unknown": ("(line unknown)", "（行号未知）"),
    "panes.stack.none": ("(no frames)", "（没有栈帧）"),
    # A text pane's last line when its text does not fit.
    "panes.more.below": ("↓ {n} more line · j/k scroll", "↓ 下面还有 {n} 行 · j/k 滚动"),
    "panes.more.below_many": ("↓ {n} more lines · j/k scroll", "↓ 下面还有 {n} 行 · j/k 滚动"),
    "panes.more.above": ("↑ {n} line above · k scrolls up", "↑ 上面还有 {n} 行 · k 向上滚动"),
    "panes.more.above_many": ("↑ {n} lines above · k scrolls up", "↑ 上面还有 {n} 行 · k 向上滚动"),
    "panes.more.focus": ("↓ {n} more line · tab here, then j/k", "↓ 下面还有 {n} 行 · 按 tab 到这里再 j/k"),
    "panes.more.focus_many": ("↓ {n} more lines · tab here, then j/k", "↓ 下面还有 {n} 行 · 按 tab 到这里再 j/k"),
    "panes.more.above_focus": ("↑ {n} line above · tab here, then k", "↑ 上面还有 {n} 行 · 按 tab 到这里再 k"),
    "panes.more.above_focus_many": ("↑ {n} lines above · tab here, then k", "↑ 上面还有 {n} 行 · 按 tab 到这里再 k"),
    # MCP: the timeline's words for its events, and the Detail pane's for a request, its answer, the probe.
    "panes.mcp.blocks": ("{error}{n} block(s), {size:,} B: {text}", "{error}{n} 个块，{size:,} 字节：{text}"),
    "panes.mcp.no_match": ("no path matched ({n} tried): {shape}", "没有路径匹配（试了 {n} 条）：{shape}"),
    "panes.mcp.matched": ("{matched} matched", "{matched} 匹配"),
    "panes.mcp.miss": (" after {n} miss", "，之前落空 {n} 次"),
    "panes.mcp.misses": (" after {n} misses", "，之前落空 {n} 次"),
    "panes.mcp.request": (
        "JSON-RPC request #{id}: {method} {tool}, sent to {server}",
        "JSON-RPC 请求 #{id}：{method} {tool}，发给 {server}",
    ),
    "panes.mcp.answer": (
        "JSON-RPC answer to #{id}: isError {error}, {n} content block(s), {size:,} bytes",
        "JSON-RPC 对 #{id} 的回答：isError {error}，{n} 个内容块，{size:,} 字节",
    ),
    "panes.mcp.block": ("block {n} ({kind}):\n", "块 {n}（{kind}）：\n"),
    "panes.mcp.probe": ("JSONPath probe, in order:", "JSONPath 探测，按顺序："),
    "panes.mcp.looked": ("the answer looked like: ", "回答的样子："),
    "panes.mcp.servers": ("tools from MCP servers (tools/list):", "来自 MCP 服务器的工具（tools/list）："),
    "panes.mcp.server": (
        "  {server} ({transport}) · {name} · protocol {version} · request #{id}: {names}\n",
        "  {server}（{transport}）· {name} · 协议 {version} · 请求 #{id}：{names}\n",
    ),
    # Below a tutorial's last stop.
    "panes.part_end": (
        "End of this part. space: on to part {number} of {parts}: {label}",
        "本部分到此结束。按空格进入第 {number}/{parts} 部分：{label}",
    ),
    "panes.last_stop": (
        "This is the last stop. Keep stepping, or q to leave.",
        "这是最后一个停靠点。继续单步，或按 q 离开。",
    ),
    "panes.tutorial_end": (
        "End of the tutorial. Other tutorials (T opens one, or `loopscope tutorial NAME`):\n{others}",
        "教程到此结束。其他教程（按 T 打开，或 `loopscope tutorial 名字`）：\n{others}",
    ),
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
