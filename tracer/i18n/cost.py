"""Words of a model call's bill: tokens, where their count came from, the price and why there is none."""

MESSAGES: dict[str, tuple[str, str]] = {
    "cost.call": (
        "{prompt} prompt + {completion} completion tokens{parts}, {source} · {dollars}{note}",
        "提示词 {prompt} + 补全 {completion} 个 token{parts}，{source} · {dollars}{note}",
    ),
    "cost.source.estimated": ("estimated (no usage recorded)", "估算（没有记录 usage）"),
    "cost.source.endpoint": ("from the endpoint's usage", "来自端点返回的 usage"),
    "cost.no_price": ("no price", "没有价格"),
    "cost.note.no_price": (
        " (no price for {model!r}: add it to a {variable} file)",
        "（{model!r} 没有价格：把它加进 {variable} 文件）",
    ),
    "cost.note.estimate": (
        " (an estimate: {model} costs nothing, priced as {entry})",
        "（估算：{model} 不收费，按 {entry} 的价格计）",
    ),
    "cost.short": ("{prompt}+{completion} tok · {dollars}{mark}", "{prompt}+{completion} token · {dollars}{mark}"),
    "cost.short.estimated": (" (est.)", "（估算）"),
}
