"""Words of the narrator (`loopscope run`, `debug --print`, the printed tutorial walk) and of the closing ledger."""

# Lines that imitate LangChain's verbose output ("> Entering new AgentExecutor chain...", "Observation:",
# "Invoking: ...") keep LangChain's words in Chinese too: a learner holds them against LangChain's own
# printout and the ReAct prompt, and the Chinese tutorial notes quote them as printed.
_LANGCHAIN: dict[str, str] = {
    "narration.entering.chain": "> Entering new AgentExecutor chain...",
    "narration.entering.graph": "> Entering new {graph} run (LangGraph)...",
    "narration.finished": "> Finished chain.",
    "narration.invoking": "Invoking: `{tool}` with `{tool_input}`",
    "narration.observation": "Observation: {observation}",
    "narration.finish_check": "isinstance(output, AgentFinish) → {is_finish}   ({output_type})",
}

MESSAGES: dict[str, tuple[str, str]] = {
    **{key: (words, words) for key, words in _LANGCHAIN.items()},
    "narration.entering.framework": (
        "> Entering new {framework} run (agent {agent})...",
        "> 进入新的 {framework} 运行（agent {agent}）...",
    ),
    "narration.entering.framework_unnamed": ("> Entering new {framework} run...", "> 进入新的 {framework} 运行..."),
    "narration.entering.imported": ("> Entering an imported run...", "> 进入一次导入的运行..."),
    "narration.graph_edge.end": (
        "the reply has no tool calls → the edge after the model node goes to END",
        "回复里没有工具调用 → 模型节点之后的边走向 END",
    ),
    "narration.graph_edge.to": (
        "the reply has no tool calls → the edge after the model node goes to {node}",
        "回复里没有工具调用 → 模型节点之后的边走向 {node}",
    ),
    "narration.graph_edge.tools": (
        "the reply asked for tools and they ran → the edge goes back to the model node",
        "回复要求调用工具，工具已运行 → 边回到模型节点",
    ),
    "narration.question": ("Question: {question}", "问题：{question}"),
    "narration.question.first_call": ("   (the first model call's user message)", "   （第一次模型调用里用户的消息）"),
    "narration.summary_call": (
        "  ↳ the history is over budget: a summary call asks {model}",
        "  ↳ 历史超出了预算：一次摘要调用去问 {model}",
    ),
    "narration.round": (
        "\n── round {iteration} · plan() asks {model}{sent} ──",
        "\n── 第 {iteration} 轮 · plan() 去问 {model}{sent} ──",
    ),
    "narration.round.imported": (
        "\n── round {iteration} · the model is asked {model}{sent} ──",
        "\n── 第 {iteration} 轮 · 去问模型 {model}{sent} ──",
    ),
    "narration.round.in_call": (
        "\n── round {iteration} · inside tool call {call}, the model is asked {model}{sent} ──",
        "\n── 第 {iteration} 轮 · 在工具调用 {call} 里去问模型 {model}{sent} ──",
    ),
    "narration.imported.reply": ("Reply: {reply}", "回复：{reply}"),
    "narration.imported.partial": ("   (partial: {why})", "   （不完整：{why}）"),
    "narration.round.messages": (" with {count} messages", "，带 {count} 条消息"),
    "narration.prompt_sent": ("prompt sent:\n{prompt}", "发出的提示词：\n{prompt}"),
    "narration.calculator": (
        "  ↳ the calculator's model wrote {expression} and numexpr computed {result}",
        "  ↳ 计算器的模型写出 {expression}，numexpr 算出 {result}",
    ),
    "narration.mcp.request": ("  ↳ MCP {call} to {server}", "  ↳ 向 {server} 发出 MCP {call}"),
    "narration.mcp.result": (
        "  ↳ the server answered {request}: {blocks}{failed}",
        "  ↳ 服务器回答了 {request}：{blocks}{failed}",
    ),
    "narration.mcp.blocks": ("{count} content block(s), {size} bytes", "{count} 个内容块，{size} 字节"),
    "narration.mcp.is_error": (" · isError: the tool ran and failed", " · isError：工具运行了，但失败了"),
    "narration.mcp.matched": ("  ↳ probed with JSONPath: {path} matched", "  ↳ 用 JSONPath 探查：{path} 匹配上了"),
    "narration.mcp.matched_many": (
        " {count} nodes (the observation lists them all)",
        " {count} 个节点（观察结果把它们全列出来）",
    ),
    "narration.mcp.unmatched": (
        "  ↳ no JSONPath matched (tried {tried}): the call fails with the answer's outline",
        "  ↳ 没有 JSONPath 匹配上（试过 {tried}）：这次调用失败，带回答案的轮廓",
    ),
    "narration.context_trimmed": (
        "Context trimmed ({reason}): {messages_before} → {messages_after} messages, "
        "{tokens_before} → {tokens_after} tokens; dropped the {dropped} oldest",
        "上下文已裁剪（{reason}）：{messages_before} → {messages_after} 条消息，"
        "{tokens_before} → {tokens_after} 个 token；丢掉了最早的 {dropped} 条",
    ),
    "narration.summarized": (
        "Summarized: {replaced} messages replaced by one summary ({messages_before} → {messages_after} messages, "
        "{tokens_before} → {tokens_after} tokens): {summary}",
        "已摘要：{replaced} 条消息换成了一条摘要（{messages_before} → {messages_after} 条消息，"
        "{tokens_before} → {tokens_after} 个 token）：{summary}",
    ),
    "narration.invalid_tool": ("Observation (invalid tool): {observation}", "Observation（无效的工具）：{observation}"),
    "narration.parse_error": ("Parse error: {error}", "解析错误：{error}"),
    "narration.parse_error.sent_back": (
        "Observation (sent back): {observation}",
        "Observation（发回给模型）：{observation}",
    ),
    "narration.tool_error.handled": (
        "Tool error in {tool} (handled, becomes the observation): {error}",
        "工具 {tool} 出错（已处理，成为 observation）：{error}",
    ),
    "narration.tool_error.unhandled": (
        "Tool error in {tool} (not handled, the run stops): {error}",
        "工具 {tool} 出错（未处理，运行停止）：{error}",
    ),
    "narration.retry": (
        "  retry {what} after attempt {attempt}, waiting {delay}s: {error}",
        "  第 {attempt} 次尝试失败，重试 {what}，先等 {delay}s：{error}",
    ),
    "narration.rate_limit_wait": ("  rate limiter held the call for {waited}s", "  限流器让这次调用等了 {waited}s"),
    "narration.breaker.open": (
        "  breaker OPEN for {model} ({cause}; no calls for {cool_down}s): {error}",
        "  {model} 的断路器断开（{cause}；{cool_down}s 内不再调用）：{error}",
    ),
    "narration.breaker.open.trial_failed": ("its half-open trial failed", "半开状态下的试探调用失败了"),
    "narration.breaker.open.failures": ("{failures} failures in {window}s", "{window}s 内失败 {failures} 次"),
    "narration.breaker.half_open": (
        "  breaker half-open for {model} after {open_for}s: one trial call goes through",
        "  {model} 的断路器断开 {open_for}s 后半开：放一次试探调用过去",
    ),
    "narration.breaker.closed": (
        "  breaker closed for {model}: the trial call worked",
        "  {model} 的断路器闭合：试探调用成功了",
    ),
    "narration.fallback.refused": (
        "  fallback: {failed} refused unsent by its open breaker; asking {next} the same prompt",
        "  回退：{failed} 的断路器断开，调用没有发出；把同一份提示词交给 {next}",
    ),
    "narration.fallback.failed": (
        "  fallback: {failed} failed for good ({error_type}); asking {next} the same prompt",
        "  回退：{failed} 彻底失败（{error_type}）；把同一份提示词交给 {next}",
    ),
    "narration.answered_by": ("  (answered by {model})", "  （由 {model} 回答）"),
    "narration.plan_error": (
        "  plan got no action ({failures}/{degrade_after} before the rules take over): {error}",
        "  plan 没有得到动作（{failures}/{degrade_after}，到数后改由规则接手）：{error}",
    ),
    "narration.degrade.no_rule": (
        "Degraded to rules after {failures} failures in a row: no rule matches the question",
        "连续失败 {failures} 次后降级为规则：没有规则匹配这个问题",
    ),
    "narration.degrade.rule": (
        "Degraded to rules after {failures} failures in a row: rule {rule} → {call}",
        "连续失败 {failures} 次后降级为规则：规则 {rule} → {call}",
    ),
    "narration.refusal": (
        "Refusal ({detected_by}), answered as plain text: {text}",
        "拒答（{detected_by}），当作普通文本回答：{text}",
    ),
    "narration.limit_reached": (
        "Stopped: {reason} reached after {iterations} iterations ({elapsed}s), early_stopping_method={method}",
        "已停止：{iterations} 轮后（{elapsed}s）达到 {reason}，early_stopping_method={method}",
    ),
    "narration.output": ("Output: {answer}", "输出：{answer}"),
    "narration.output.last_reply": ("   (the last model reply)", "   （最后一条模型回复）"),
    "narration.chain_failed": ("> Chain failed: {error}", "> 链运行失败：{error}"),
}
