"""The timeline's few words per event in Chinese: the same values in the same order, the debugger's words translated."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from executor.events import LLMEndEvent

from ...trace.run_inputs import answer_of, question_of
from .clipped_text import first_line
from .mcp_view import mcp_summary


def _output(values: dict) -> str:
    answer = first_line(str(answer_of(values)))
    return answer or "（空）"


def _question(inputs: dict) -> str:
    return first_line(question_of(inputs)) or "（输入里没有）"


def _caller(event: Any) -> str:
    frames = event.frames
    if event.stack:  # a traced LangChain run: its frames stop at the caller (plan), not at the model call
        return frames[-1]
    return frames[-2] if len(frames) >= 2 else "?"


def _tool_calls(event: LLMEndEvent) -> str:
    calls = event.tool_calls or []
    listed = "、".join(f"{call.name}({first_line(call.arguments)}) [{call.id}]" for call in calls)
    return f"{len(calls)} 个工具调用：{listed}"


def _recovery(e: Any) -> str:
    if e.kind == "fallback":
        why = "被打开的熔断器拒绝，没有发出" if e.refused else f"彻底失败（{e.error_type}）"
        return f"{e.failed_model} {why} → {e.next_model}"
    if e.kind == "breaker_open":
        cause = "半开试探失败" if e.from_state == "half_open" else f"{e.window:g} 秒内失败 {e.failures} 次"
        return f"{e.model}：{cause}，{e.cool_down:g} 秒内拒绝调用"
    if e.kind == "breaker_half_open":
        return f"{e.model}：已打开 {e.open_for:g} 秒，放一次试探调用过去"
    if e.kind == "breaker_closed":
        return f"{e.model}：试探调用成功，调用恢复"
    if e.kind == "plan_error":
        return f"{e.failures}/{e.degrade_after} {e.error_type}：{first_line(e.message)}"
    if e.kind == "degrade":
        found = f"规则 {e.rule!r} → {e.tool}({first_line(e.tool_input or '')!r})" if e.rule else "没有匹配的规则"
        return f"失败 {e.failures} 次之后：{found}"
    return f"{e.detected_by}：{first_line(e.text)}"  # refusal


SUMMARIES_ZH: dict[str, Callable[[Any], str]] = {
    "chain_start": lambda e: "问题：" + _question(e.inputs),
    "llm_start": lambda e: f"{_caller(e)}() → {e.model} · {len(e.prompt):,} 字符",
    "llm_end": lambda e: (
        _tool_calls(e)
        if e.tool_calls
        else (f"{e.answered_by} 的回复：" if e.answered_by else "回复：") + first_line(e.text)
    ),
    "agent_finish": lambda e: "最终答案：" + _output(e.return_values),
    "parse_error": lambda e: ("已处理：" if e.handled else "未处理：") + first_line(e.error),
    "invalid_tool": lambda e: f"没有名为 {first_line(e.requested)!r} 的工具",
    "retry": lambda e: f"#{e.attempt} 等 {e.delay:.2f} 秒 · {e.target} {e.name!r} 失败",
    "rate_limit_wait": lambda e: f"为速率限制等了 {e.waited:.2f} 秒",
    "limit_reached": lambda e: f"{e.reason}，共 {e.iterations} 轮",
    "chain_end": lambda e: "输出：" + _output(e.outputs),
    **dict.fromkeys(
        ("fallback", "breaker_open", "breaker_half_open", "breaker_closed", "plan_error", "degrade", "refusal"),
        _recovery,
    ),
    **dict.fromkeys(("mcp_request", "mcp_result", "mcp_extract"), lambda e: mcp_summary(e, "zh")),
    "context_trimmed": lambda e: (
        f"{e.reason}：{e.messages_before} → {e.messages_after} 条消息，"
        f"{e.tokens_before} → {e.tokens_after} token，丢掉 {len(e.dropped)} 条"
    ),
    "summarized": lambda e: (
        f"{len(e.replaced)} 条消息 → 1 条摘要：{e.messages_before} → "
        f"{e.messages_after} 条消息，{e.tokens_before} → {e.tokens_after} token"
    ),
}
