"""The timeline's few words per event: the deciding value first, model and tool text cut to its first line."""

MESSAGES: dict[str, tuple[str, str]] = {
    "events.question": ("question: {question}", "问题：{question}"),
    "events.no_question": ("(none in the inputs)", "（输入里没有）"),
    "events.empty": ("(empty)", "（空）"),
    "events.llm_start": ("{caller}() → {model} · {chars} chars", "{caller}() → {model} · {chars} 字符"),
    "events.reply": ("reply: {text}", "回复：{text}"),
    "events.reply_from": ("reply from {by}: {text}", "{by} 的回复：{text}"),
    "events.tool_call": ("{count} tool call: {listed}", "{count} 个工具调用：{listed}"),
    "events.tool_calls": ("{count} tool calls: {listed}", "{count} 个工具调用：{listed}"),
    "events.call_separator": (", ", "、"),
    "events.graph_edge.end": ("→ END ← the reply has no tool calls", "→ END ← 回复里没有工具调用"),
    "events.graph_edge.model": ("→ model ← the tools ran", "→ 模型 ← 工具已运行"),
    "events.graph_edge.to": ("→ {node} ← the reply has no tool calls", "→ {node} ← 回复里没有工具调用"),
    "events.final_answer": ("final answer: {answer}", "最终答案：{answer}"),
    "events.handled": ("handled: {error}", "已处理：{error}"),
    "events.not_handled": ("not handled: {error}", "未处理：{error}"),
    "events.invalid_tool": ("no tool named {requested}", "没有名为 {requested} 的工具"),
    "events.retry": (
        "#{attempt} wait {delay}s · {target} {name} failed",
        "#{attempt} 等 {delay} 秒 · {target} {name} 失败",
    ),
    "events.rate_limit_wait": ("{waited}s waited for the rate limit", "为速率限制等了 {waited} 秒"),
    "events.limit_reached": ("{reason} after {iterations} iterations", "{reason}，共 {iterations} 轮"),
    "events.output": ("output: {answer}", "输出：{answer}"),
    "events.context_trimmed": (
        "{reason}: {before} → {after} messages, {tokens_before} → {tokens_after} tokens, {dropped} dropped",
        "{reason}：{before} → {after} 条消息，{tokens_before} → {tokens_after} token，丢掉 {dropped} 条",
    ),
    "events.summarized": (
        "{replaced} messages → 1 summary: {before} → {after} messages, {tokens_before} → {tokens_after} tokens",
        "{replaced} 条消息 → 1 条摘要：{before} → {after} 条消息，{tokens_before} → {tokens_after} token",
    ),
    # Fallbacks, breakers, degradation and refusals.
    "events.fallback_refused": (
        "{failed} REFUSED by open breaker, never sent → {next}",
        "{failed} 被打开的熔断器拒绝，没有发出 → {next}",
    ),
    "events.fallback_failed": ("{failed} failed for good ({error}) → {next}", "{failed} 彻底失败（{error}）→ {next}"),
    "events.breaker_open_trial": (
        "{model}: half-open trial failed, refusing calls for {cool_down}s",
        "{model}：半开试探失败，{cool_down} 秒内拒绝调用",
    ),
    "events.breaker_open": (
        "{model}: {failures} failures in {window}s, refusing calls for {cool_down}s",
        "{model}：{window} 秒内失败 {failures} 次，{cool_down} 秒内拒绝调用",
    ),
    "events.breaker_half_open": (
        "{model}: open for {open_for}s, one trial call goes through",
        "{model}：已打开 {open_for} 秒，放一次试探调用过去",
    ),
    "events.breaker_closed": ("{model}: trial call worked, calls flow again", "{model}：试探调用成功，调用恢复"),
    "events.plan_error": ("{failures}/{after} {error}: {message}", "{failures}/{after} {error}：{message}"),
    "events.degrade": (
        "after {failures} failures: rule {rule} → {tool}({tool_input})",
        "失败 {failures} 次之后：规则 {rule} → {tool}({tool_input})",
    ),
    "events.degrade_none": ("after {failures} failures: no rule matches", "失败 {failures} 次之后：没有匹配的规则"),
    "events.refusal": ("{by}: {text}", "{by}：{text}"),
}
