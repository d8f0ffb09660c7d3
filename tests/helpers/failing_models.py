"""Models that fail like a dead endpoint does, for fallback, breaker and degradation tests."""


class HTTPFailure(Exception):
    """An error carrying an HTTP status, as a provider's errors do."""

    def __init__(self, status_code):
        super().__init__(f"HTTP {status_code}")
        self.status_code = status_code


class DeadModel:
    """An endpoint that answers 429, then 500, forever; counts the calls that reached it."""

    def __init__(self, model_name="primary", endpoint="http://dead/v1"):
        self.model_name, self.endpoint, self.calls = model_name, endpoint, 0

    def generate(self, prompt, stop):
        self.calls += 1
        raise HTTPFailure(429 if self.calls == 1 else 500)


class FailsOnceModel:
    """Wraps scripted replies: the first call raises `error` (a provider hiccup), the rest answer.

    `live = True` makes the executor's default retry policy apply, as it does for a real endpoint.
    """

    def __init__(self, replies, error: Exception, live: bool = False):
        from executor import ScriptedModel

        self._scripted = ScriptedModel(replies)
        self.model_name = self._scripted.model_name
        self.live = live
        self._error: Exception | None = error

    def generate(self, prompt, stop):
        if self._error is not None:
            error, self._error = self._error, None
            raise error
        return self._scripted.generate(prompt, stop)
