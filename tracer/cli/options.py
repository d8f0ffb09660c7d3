"""The commands' options as values: built here from the arguments (and the variables the user set), handed down."""

from __future__ import annotations

import argparse
import os

TYPE_CHECKING = False  # not typing's: see scenarios.py
if TYPE_CHECKING:  # a price table is read when a command prices something, not for --help
    from ..debug.options import DebuggerOptions
    from ..report.cost.prices import PriceTable


def price_table(path: str | os.PathLike[str] | None) -> PriceTable:
    """The shipped prices overlaid by --prices FILE, else by the file $LOOPSCOPE_PRICES names (the user's
    variable, read here at the edge: nothing below cli/ reads it). PriceTableError when the file is bad."""
    from ..report.cost.prices import ENV_PRICES, PriceTable  # late: see TYPE_CHECKING above

    return PriceTable.load(path or os.environ.get(ENV_PRICES) or None)


def debugger_options(args: argparse.Namespace, lang: str | None) -> DebuggerOptions:
    """`loopscope debug`'s arguments as the debugger's options; `lang` as --lang (or the locale) chose it.
    Arguments a command does not have (tutorial has no --break) are left at their defaults."""
    from ..debug.options import DebuggerOptions  # late: see TYPE_CHECKING above

    return DebuggerOptions(
        prices=price_table(getattr(args, "prices", None)),
        lang=lang,
        agents=tuple(getattr(args, "agents", None) or ()),
        breakpoints=tuple(getattr(args, "breaks", None) or ()),
        model=getattr(args, "model", None),
        base_url=getattr(args, "base_url", None),
    )
