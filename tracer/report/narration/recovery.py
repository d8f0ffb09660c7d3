"""How the narrator tells a model or tool that fails and a run that carries on: retries, rate limits, breakers, fallbacks, degradation to rules, refusals."""

from __future__ import annotations

from executor.events import (
    BreakerClosedEvent,
    BreakerHalfOpenEvent,
    BreakerOpenEvent,
    DegradeEvent,
    FallbackEvent,
    PlanErrorEvent,
    RateLimitWaitEvent,
    RefusalEvent,
    RetryEvent,
)

from ..text.literal import literal
from .voice import NarrationVoice


class RecoveryNarration(NarrationVoice):
    """The narrator's part for trouble the run survives (or stops on)."""

    def _on_retry(self, e: RetryEvent) -> None:
        what, error = self.text(f"{e.target} {e.name!r}", "yellow"), self.text(e.error, "yellow")
        delay = f"{float(e.delay):.2f}"
        self.say(self.words("narration.retry", "yellow", what=what, attempt=e.attempt, delay=delay, error=error))

    def _on_rate_limit_wait(self, e: RateLimitWaitEvent) -> None:
        self.say(self.words("narration.rate_limit_wait", "yellow", waited=f"{e.waited:.3f}"))

    def _on_breaker_open(self, e: BreakerOpenEvent) -> None:
        if e.from_state == "half_open":
            cause = self.words("narration.breaker.open.trial_failed", "red")
        else:
            cause = self.words("narration.breaker.open.failures", "red", failures=e.failures, window=f"{e.window:g}")
        model, error = literal(e.model, "bold red"), literal(e.error, "red")
        cool_down = f"{e.cool_down:g}"
        self.say(
            self.words("narration.breaker.open", "red", model=model, cause=cause, cool_down=cool_down, error=error)
        )

    def _on_breaker_half_open(self, e: BreakerHalfOpenEvent) -> None:
        model = literal(e.model, "yellow")
        self.say(self.words("narration.breaker.half_open", "yellow", model=model, open_for=f"{e.open_for:g}"))

    def _on_breaker_closed(self, e: BreakerClosedEvent) -> None:
        self.say(self.words("narration.breaker.closed", "green", model=literal(e.model, "green")))

    def _on_fallback(self, e: FallbackEvent) -> None:
        failed, next_model = literal(e.failed_model, "bold"), literal(e.next_model, "bold")
        key = "narration.fallback.refused" if e.refused else "narration.fallback.failed"
        self.say(self.words(key, "yellow", failed=failed, next=next_model, error_type=e.error_type))

    def _on_plan_error(self, e: PlanErrorEvent) -> None:
        error = literal(f"{e.error_type}: {e.message}", "red")
        failures, degrade_after = e.failures, e.degrade_after
        self.say(self.words("narration.plan_error", "red", failures=failures, degrade_after=degrade_after, error=error))

    def _on_degrade(self, e: DegradeEvent) -> None:
        if e.rule is None:
            self.say(self.words("narration.degrade.no_rule", "bold red", failures=e.failures))
            return
        rule, call = literal(e.rule, "bold"), literal(f"{e.tool}({e.tool_input!r})", "bold")
        self.say(self.words("narration.degrade.rule", "magenta", failures=e.failures, rule=rule, call=call))

    def _on_refusal(self, e: RefusalEvent) -> None:
        text = literal(e.text, "yellow")
        self.say(self.words("narration.refusal", "bold yellow", detected_by=e.detected_by, text=text))
