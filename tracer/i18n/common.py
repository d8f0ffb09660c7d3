"""Words every part of loopscope uses: yes and no, events and runs."""

MESSAGES: dict[str, tuple[str, str]] = {
    "common.event": ("event {seq}", "事件 {seq}"),
}
