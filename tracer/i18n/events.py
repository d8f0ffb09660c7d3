"""placeholder"""

MESSAGES: dict[str, tuple[str, str]] = {}
