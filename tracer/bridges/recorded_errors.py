"""A failed model call's exception named by its class in a trace, and raised again from that name in a re-run.

A trace is untrusted (docs/security.md): the class it names is only looked up among modules this process has
already imported, never imported, and it is made without running any of its own code (not its `__new__`, its
`__init__` or its `__str__`), so a hostile trace can at most pick which exception a re-run raises.
"""

from __future__ import annotations

import sys
from types import ModuleType

# Where the stand-in classes live: the name a re-run shows for an error whose real class it could not use.
STAND_IN_MODULE = "loopscope.recorded"


def class_path(cls: type) -> str:
    """The class's "module:qualname" (the colon says where the module's name ends and the class's begins)."""
    return f"{cls.__module__}:{cls.__qualname__}"


def loaded_exception_class(path: str) -> type[Exception] | None:
    """The Exception subclass named "module:qualname" when its module is already loaded, it is defined there
    under that name, and making and printing an instance runs only Python's own code (its `__new__` is a
    built-in exception's, its `__str__` BaseException's); otherwise None. Nothing is imported."""
    module_name, _, qualname = path.partition(":")
    found: object = sys.modules.get(module_name)
    for part in qualname.split(".") if qualname else ():
        # Only through modules and classes, by their own dictionaries: no attribute hook of anything runs.
        if not isinstance(found, (ModuleType, type)) or not part.isidentifier() or part.startswith("__"):
            return None
        found = vars(found).get(part)
    if not (isinstance(found, type) and issubclass(found, Exception)):
        return None
    if class_path(found) != path or _defined_by(found, "__str__") is not BaseException:
        return None
    return found if _defined_by(found, "__new__").__module__ == "builtins" else None


def _defined_by(cls: type, method: str) -> type:
    return next(base for base in cls.__mro__ if method in vars(base))


def recorded_error(error: str, error_class: str | None = None) -> Exception:
    """The recorded failure ("Type: message") raised again, so a retry or a fallback does what it did.

    As an instance of its real class when the trace names one that is loaded (a `retry_on` naming that class
    matches it), made without its `__init__`: it has the recorded message and the class's own attributes
    (openai's `status_code`), not those its `__init__` would set from the HTTP response. Otherwise as a
    stand-in of the same name (a RuntimeError), which only the error's name and message survive in."""
    name, _, message = error.partition(": ")
    named = name if name.isidentifier() else "RecordedModelError"
    text = message if named == name else error
    real = loaded_exception_class(error_class) if error_class else None
    instance = _made_without_init(real, text) if real is not None and real.__name__ == named else None
    return instance or type(named, (RuntimeError,), {"__module__": STAND_IN_MODULE})(text)


def _made_without_init(cls: type[Exception], text: str) -> Exception | None:
    """An instance of `cls` holding `text`, its own `__init__` not run; None when it cannot be made that way."""
    try:
        instance = cls.__new__(cls)
        Exception.__init__(instance, text)
    except Exception:  # a built-in exception that needs arguments to be made (UnicodeDecodeError)
        return None
    return instance
