"""Words of `loopscope exercise`: the list, start, check and hint."""

MESSAGES: dict[str, tuple[str, str]] = {}
