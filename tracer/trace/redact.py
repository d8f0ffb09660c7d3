"""Secrets kept out of trace files: API keys from the environment, bearer and basic credentials, key-shaped strings."""

from __future__ import annotations

import functools
import json
import os
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from executor.models.credentials import userinfo_credentials

# Environment variables whose values are secrets by their name (OPENAI_API_KEY, GITHUB_TOKEN, ...).
SECRET_ENV_NAME = re.compile(r"(API_?KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIALS?|AUTH)", re.IGNORECASE)
# Shorter values are too likely to be ordinary words or flags ("1", "true") to hunt for.
MIN_SECRET_LENGTH = 8

# Built-in shapes of secrets. The character classes leave out '"' and '\\' on purpose:
# a match then never crosses the edge of a JSON string, so redacting a JSON line keeps it JSON.
BUILTIN_PATTERNS = {
    "authorization-header": r"(?i)\b(?:proxy-)?authorization\s*:\s*(?:[A-Za-z]+\s+)?[^\s\"\\]{8,}",
    "bearer-token": r"(?i)\bbearer\s+[A-Za-z0-9._~+/=-]{8,}",
    "openai-style-key": r"\bsk-[A-Za-z0-9_-]{16,}",
    "anthropic-style-key": r"\bsk-ant-[A-Za-z0-9_-]{16,}",
    "google-api-key": r"\bAIza[0-9A-Za-z_-]{30,}",
    "github-token": r"\bgh[pousr]_[A-Za-z0-9]{30,}",
    "aws-access-key-id": r"\bAKIA[0-9A-Z]{16}\b",
    # HTTP Basic credentials, the base64 of user:password. It must hold a capital, a digit, '+' or '/'
    # after its first character (base64 of text nearly always does), so "basic training" stays.
    # Its two spellings rather than (?i) or \b: a character class first is searched ~7x faster, and
    # (?i) would also take "baſic" (long s), which lower() leaves without the clue.
    "basic-credentials": r"[Bb](?:asic|ASIC)\s+[A-Za-z0-9+/](?=[A-Za-z0-9+/]*[A-Z0-9+/])[A-Za-z0-9+/]{7,}={0,2}",
    # A URL's user:password@ (or token@): the password (or the lone token) goes, scheme and user stay.
    # Everything up to the authority's last '@' is taken, so a password holding '@' goes whole. It
    # starts at "://", a literal the regex engine finds fast (a scheme in front cost 150x as much).
    "url-userinfo": r"(?P<keep>://(?:[^\s/?#@\"\\:]*:)?)[^\s/?#\"\\]+(?=@)",
}
# Text each built-in pattern cannot match without (lower-cased). Substring tests are far
# cheaper than regex scans, so a line is only regex-searched for shapes it could contain.
# A tuple is a clue of several parts, all needed: a URL's userinfo needs both "@" and "://",
# and either alone is common (every link, every e-mail address).
BUILTIN_CLUES: dict[str, tuple[str | tuple[str, ...], ...]] = {
    "authorization-header": ("authorization",),
    "bearer-token": ("bearer",),
    "openai-style-key": ("sk-",),
    "anthropic-style-key": ("sk-ant-",),
    "google-api-key": ("aiza",),
    "github-token": ("ghp_", "gho_", "ghu_", "ghs_", "ghr_"),
    "aws-access-key-id": ("akia",),
    "basic-credentials": ("basic",),
    "url-userinfo": (("@", "://"),),
}
# Keys of a mapping whose values are secret whatever they look like (HTTP headers, config).
SECRET_KEYS = frozenset(
    {
        "authorization",
        "proxy-authorization",
        "api_key",
        "api-key",
        "apikey",
        "x-api-key",
        "password",
        "secret",
        "token",
        "access_token",
    }
)
_ALL_CLUES = tuple(clue for clues in BUILTIN_CLUES.values() for clue in clues if isinstance(clue, str))
_CLUE_PARTS = tuple(clue for clues in BUILTIN_CLUES.values() for clue in clues if isinstance(clue, tuple))
# The fewest clues that cover all of them (sk-ant- holds sk-, so sk- is enough), grouped by a
# character they cannot appear without: '_' for GitHub's prefixes.
# A substring test is a fast scan in C; one test for the character rules a whole group out.
# (One re alternation of every clue was ~5 ns a character: 15 µs for a 3 KB observation.)
_FEWEST_CLUES = tuple(
    sorted(clue for clue in set(_ALL_CLUES) if not any(other != clue and other in clue for other in _ALL_CLUES))
)
_CLUE_GROUPS = tuple(
    (gate, tuple(clue for clue in _FEWEST_CLUES if ("_" if "_" in clue else "") == gate)) for gate in ("", "_")
)


def _clue_test() -> Callable[[str], bool]:
    """`has_clue(lowered)`: does the lower-cased text hold any clue? One boolean expression,
    written out once from _CLUE_GROUPS (a loop over the groups costs more than the scans)."""
    terms = []
    for gate, clues in _CLUE_GROUPS:
        tests = " or ".join(f"{clue!r} in lowered" for clue in clues)
        terms.append(f"({gate!r} in lowered and ({tests}))" if gate else tests)
    terms += ["(" + " and ".join(f"{part!r} in lowered" for part in parts) + ")" for parts in _CLUE_PARTS]
    namespace: dict[str, Any] = {}
    exec(f"def has_clue(lowered):\n    return {' or '.join(terms)}", namespace)
    return namespace["has_clue"]


_has_clue = _clue_test()


@functools.cache  # written out once, on the first line that holds a clue
def _search_clued_builtins() -> Callable[[str, str], bool]:
    """`search(lowered, text)`: does a built-in pattern whose clue `lowered` holds match `text`?

    Only those shapes are searched: a regex pass over a 3 KB line costs 1-50 µs, and a line with
    the word "basic", or a link and an e-mail address, is common enough that searching all nine
    for it would make such lines ten times dearer. One expression, written out as _clue_test's.
    """
    namespace: dict[str, Any] = {}
    terms = []
    for index, (name, pattern) in enumerate(BUILTIN_PATTERNS.items()):
        namespace[f"search_{index}"] = re.compile(pattern).search
        parts_of = ((clue,) if isinstance(clue, str) else clue for clue in BUILTIN_CLUES[name])
        clues = " or ".join(" and ".join(f"{part!r} in lowered" for part in parts) for parts in parts_of)
        terms.append(f"(({clues}) and search_{index}(text) is not None)")
    exec(f"def search(lowered, text):\n    return {' or '.join(terms)}", namespace)
    return namespace["search"]


_SECRET_KEY_NAMES = "|".join(re.escape(key) for key in sorted(SECRET_KEYS, key=len, reverse=True))
# A secret key about to be given a value, bare or quoted (also with the escaped quotes of a JSON-encoded
# line): `"password": `, `'x-api-key': `, `token=`, `\"api_key\":`. A first look only, on any text,
# so nothing is asked of what comes before the key (in an encoded line, a newline before it is `\n`).
# In lower-cased text. _names_secret_key finds the same (a test holds them to it), faster.
_SECRET_KEY_NEAR_VALUE = re.compile(rf"(?:{_SECRET_KEY_NAMES})\\?[\"']?(?![\w-])\s*[:=]")
# The fewest key names that cover them all (token covers access_token), and what must follow one.
_KEY_CLUES = tuple(
    sorted(key for key in SECRET_KEYS if not any(other != key and other in key for other in SECRET_KEYS))
)
_AFTER_KEY = re.compile(r"\\?[\"']?(?![\w-])\s*[:=]")


def _names_secret_key(lowered: str) -> bool:
    """Does `lowered` give a secret key a value (what _SECRET_KEY_NEAR_VALUE finds)? Each key's places are
    found with str.find and only what follows them is matched: the regex's alternation of names, tried at
    every character, cost 30 µs a reply whose usage says "prompt_tokens" (a clue, never a secret key)."""
    if ":" not in lowered and "=" not in lowered:
        return False
    for key in _KEY_CLUES:
        at = lowered.find(key)
        while at >= 0:
            at += len(key)
            if _AFTER_KEY.match(lowered, at):
                return True
            at = lowered.find(key, at)
    return False


# The value itself, in text (never an encoded line): a quoted string after a secret key (JSON text, a
# Python dict's repr, a header quoted in an exception), or an unquoted word of 8 or more characters
# (`token=...`, `x-api-key: ...`), as the dict values under those keys are. Text already redacted stays.
_SECRET_KEY_VALUE = re.compile(
    rf"""(?P<keep>(?<![\w-])(?P<q>["']?)(?P<key>{_SECRET_KEY_NAMES})(?P=q)(?![\w-])\s*[:=]\s*)(?!\[REDACTED:)"""
    r"""(?:"(?P<dq>(?:[^"\\\n]|\\.)+)"|'(?P<sq>(?:[^'\\\n]|\\.)+)'|(?P<bare>[^\s"',;&}\]]{8,}))""",
    re.IGNORECASE,
)


def _blank_value(match: re.Match[str]) -> str:
    """A secret key's value in text replaced by `[REDACTED:<key>]`, its quotes kept (JSON text stays JSON)."""
    marker = f"[REDACTED:{match['key']}]"
    quote = '"' if match["dq"] is not None else "'" if match["sq"] is not None else ""
    return f"{match['keep']}{quote}{marker}{quote}"


def _encoded_forms(value: str) -> tuple[str, ...]:
    """`value` as it may stand in an encoded JSON line: as it is, escaped (a '"' or '\\' in a key
    becomes '\\"', '\\\\'), and escaped to ASCII. A line is screened in its encoded form; the
    secret is then replaced in the decoded values, so a key holding a quote is found either way."""
    escaped = json.dumps(value, ensure_ascii=False)[1:-1]
    return tuple(dict.fromkeys((value, escaped, json.dumps(value)[1:-1])))


class RedactionPatternError(ValueError):
    """A redaction pattern (--redact or LOOPSCOPE_REDACT) that is not a valid regular expression."""


def env_secrets(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """Name -> value of every environment variable that looks like it holds a secret, and the
    password (and the Basic credentials made of it) of every URL with one (HTTPS_PROXY, DATABASE_URL)."""
    environ = os.environ if environ is None else environ
    found = {}
    for name, value in environ.items():  # every writer looks, so cheaply: substring tests first (~1 µs a name)
        upper = name.upper()  # (a non-ASCII name goes to the regex: its case rules are wider)
        if (
            (
                not name.isascii()
                or "KEY" in upper
                or "TOKEN" in upper
                or "SECRET" in upper
                or "PASS" in upper
                or "CREDENTIAL" in upper
                or "AUTH" in upper
            )
            and SECRET_ENV_NAME.search(name)
            and len(value.strip()) >= MIN_SECRET_LENGTH
        ):
            found[name] = value
        if "@" in value and "://" in value:
            found.update(
                (f"{name}-{part}", secret)
                for part, secret in userinfo_credentials(value).items()
                if len(secret) >= MIN_SECRET_LENGTH
            )
    return found


class Redactor:
    """Replaces secrets in text and in JSON-like values with `[REDACTED:<what>]`.

    Secrets come from three places: literal values (by default every secret-looking
    environment variable, so the key that made the run is never written down), the
    built-in patterns above, and any extra regular expressions the user configures.
    """

    def __init__(
        self,
        patterns: Iterable[str] = (),
        secrets: Mapping[str, str] | None = None,
        environ: Mapping[str, str] | None = None,
        builtin: bool = True,
    ) -> None:
        literal = dict(env_secrets(environ))
        literal.update(secrets or {})
        named = dict(BUILTIN_PATTERNS) if builtin else {}
        for index, pattern in enumerate(patterns, start=1):
            named[f"pattern-{index}"] = pattern
        self._literals = sorted(
            ((value, name) for name, value in literal.items() if value), key=lambda pair: -len(pair[0])
        )  # longest first: no partial leftovers
        # What is looked for: each literal as it is, and as it appears inside a JSON-encoded line.
        self._screens = tuple(dict.fromkeys(form for value, _ in self._literals for form in _encoded_forms(value)))
        self._patterns = [
            (compiled, name, _marker(compiled, name))
            for name, pattern in named.items()
            for compiled in [_compile(pattern, name)]
        ]
        self._user_patterns = [pattern for pattern, name, _ in self._patterns if name not in BUILTIN_CLUES]
        self._builtin = builtin

    def holds_known_secret(self, text: str) -> bool:
        """Does `text` (or its JSON encoding) hold one of the literal secrets (the environment's keys, configured values)?"""
        for value in self._screens:  # noqa: SIM110 (a loop, not any(genexpr): every line written asks)
            if value in text:
                return True
        return False

    def might_contain_secret(self, text: str) -> bool:
        """A cheap first look, so clean lines (nearly all of them) are written untouched."""
        if self._screens and any(value in text for value in self._screens):
            return True
        if self._user_patterns and any(pattern.search(text) for pattern in self._user_patterns):
            return True
        lowered = text.lower()
        if self._builtin and _has_clue(lowered) and _search_clued_builtins()(lowered, text):
            return True
        return _names_secret_key(lowered)

    def redact_text(self, text: str) -> str:
        """`text` (a value, never an encoded line) with every secret in it replaced."""
        if not self.might_contain_secret(text):
            return text
        for value, name in self._literals:
            text = text.replace(value, f"[REDACTED:{name}]")
        for pattern, _, marker in self._patterns:
            text = pattern.sub(marker, text)
        return _SECRET_KEY_VALUE.sub(_blank_value, text)

    def redact(self, value: Any) -> Any:
        """A copy of a JSON-like value with every string redacted and secret-named keys blanked."""
        if isinstance(value, str):
            return self.redact_text(value)
        if isinstance(value, dict):  # keys too: a client's usage or header names are outside text
            return {
                (self.redact_text(key) if isinstance(key, str) else key): (
                    f"[REDACTED:{key}]" if _is_secret_key(key, item) else self.redact(item)
                )
                for key, item in value.items()
            }
        if isinstance(value, (list, tuple)):
            return [self.redact(item) for item in value]
        return value


def _compile(pattern: str, name: str) -> re.Pattern[str]:
    try:
        return re.compile(pattern)
    except (re.error, RecursionError, OverflowError) as error:
        given = (
            "LOOPSCOPE_REDACT"
            if name.endswith("LOOPSCOPE_REDACT")
            else "it where you gave it (`loopscope record --redact`, pytest's --loopscope-redact or loopscope_redact)"
        )
        raise RedactionPatternError(
            f"redaction pattern {name} {pattern!r} is not a valid regular expression ({error}); fix {given}"
        ) from None


def _marker(pattern: re.Pattern[str], name: str) -> str:
    """What a match is replaced by: `[REDACTED:name]`, after the text of its "keep" group if it has one."""
    marker = f"[REDACTED:{name}]".replace("\\", "\\\\")  # a replacement template: a backslash is literal
    return "\\g<keep>" + marker if "keep" in pattern.groupindex else marker


def _is_secret_key(key: Any, item: Any) -> bool:
    return isinstance(key, str) and key.lower() in SECRET_KEYS and isinstance(item, str) and bool(item)


def configured_patterns() -> list[str]:
    """LOOPSCOPE_REDACT's patterns, each checked: a bad one raises RedactionPatternError naming it."""
    patterns = [line for line in os.environ.get("LOOPSCOPE_REDACT", "").splitlines() if line.strip()]
    for number, pattern in enumerate(patterns, start=1):
        _compile(pattern, f"{number} in LOOPSCOPE_REDACT")
    return patterns


def default_redactor(extra_patterns: Iterable[str] = (), secrets: Mapping[str, str] | None = None) -> Redactor:
    """Built-in patterns, the current environment's secrets, plus LOOPSCOPE_REDACT patterns.

    LOOPSCOPE_REDACT holds extra regular expressions, one per line, for secrets only the
    user knows the shape of (an internal token format, a customer id). `secrets` names
    literal values found elsewhere (a key read from .env, which the environment never held).
    """
    return Redactor(patterns=[*configured_patterns(), *extra_patterns], secrets=secrets)
