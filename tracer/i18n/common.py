"""Words every part of loopscope uses: yes and no, events and runs."""

MESSAGES: dict[str, tuple[str, str]] = {
    "common.event": ("event {seq}", "事件 {seq}"),
    # Joins: a message followed by another, and text that is not ours (said as it is in every language).
    "common.then": ("{first} · {then}", "{first} · {then}"),
    "common.text": ("{text}", "{text}"),
}
