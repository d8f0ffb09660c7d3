"""The one exception type that means "the user asked for something wrong": shown as one line, exit 2."""


class UsageError(Exception):
    """Bad input from the user: printed as one line on stderr, exit code 2."""
