"""The boxes the debugger's keys open: go to, search, breakpoint, filter, fork (f), playground (e), tutorials (T)."""

MESSAGES: dict[str, tuple[str, str]] = {
    # The questions of go to (:), search (/), add a breakpoint (B), filter (F) and diff (D).
    "boxes.ask.goto": ("Go to event number", "跳到事件编号"),
    "boxes.ask.search": ("Search the events for", "在事件里搜索"),
    "boxes.ask.search_hint": (
        "smart case: capitals make it exact · ] and [ repeat it",
        "智能大小写：有大写字母就区分大小写 · ] 和 [ 重复搜索",
    ),
    "boxes.ask.breakpoint": ("Add a breakpoint", "添加断点"),
    "boxes.ask.filter": ("Show only (empty: show everything)", "只显示（留空：显示全部）"),
    "boxes.ask.diff": ("Diff this run against which trace? (its path)", "这次运行要和哪份轨迹对比？（填它的路径）"),
    # The fork box (f).
    "boxes.fork.question": (
        "Fork at event {seq} ({kind}): replace {what}",
        "在事件 {seq}（{kind}）分叉：替换{what}",
    ),
    "boxes.fork.what.reply": ("the model's reply", "模型的回复"),
    "boxes.fork.what.observation": ("the tool's observation", "工具的观察结果"),
    "boxes.fork.after": (
        "After this event the run re-executes; a later model call asked exactly what was recorded gets its reply. ",
        "从这个事件之后，这次运行会重新执行；之后的模型调用如果问的和录下的一字不差，就得到录下的回复。",
    ),
    "boxes.fork.changed.recording": (
        "One whose prompt changed gets the reply recorded for the old prompt (named; the outcome may be stale).",
        "提示词变了的调用，得到的是为旧提示词录下的回复（会注明；结果可能已经过时）。",
    ),
    "boxes.fork.changed.stop": (
        "One whose prompt changed ends the fork there, its new prompt in the trace (e asks a model with it).",
        "提示词变了的调用，分叉就停在那里，新的提示词留在轨迹里（e 可以拿它去问模型）。",
    ),
    "boxes.fork.changed.live": (
        "One whose prompt changed goes to the live model {model}.",
        "提示词变了的调用，交给实时模型 {model}。",
    ),
    "boxes.fork.choice.recording": ("answer from the recording", "用录下的回复回答"),
    "boxes.fork.choice.stop": ("stop there", "停在那里"),
    "boxes.fork.choice.live": ("ask {model}", "问 {model}"),
    "boxes.fork.instead": ("ctrl+t: {others} instead", "ctrl+t：改为{others}"),
    "boxes.fork.keys": (
        "ctrl+s: re-run the trace with this text, open the fork · ctrl+a: select all · esc: cancel",
        "ctrl+s：用这段文字重跑轨迹并打开分叉 · ctrl+a：全选 · esc：取消",
    ),
    "boxes.fork.stand_ins": (
        "control characters of the recording are shown, and sent, as visible stand-ins (␛, \\xNN)",
        "录制里的控制字符以可见的替代符号显示，也以它们发送（␛、\\xNN）",
    ),
    "boxes.fork.unchanged": (
        "the text is unchanged: edit it first (esc cancels)",
        "文字没有改：先改一改（esc 取消）",
    ),
    # The playground (e).
    "boxes.playground.question": (
        "Event {seq}: {caller}() asked {model} · edit the exact prompt, ctrl+s sends it",
        "事件 {seq}：{caller}() 问了 {model} · 编辑原样的提示词，ctrl+s 发送",
    ),
    "boxes.playground.keys": ("ctrl+s: send · esc: close", "ctrl+s：发送 · esc：关闭"),
    "boxes.playground.recorded": ("recorded reply", "录下的回复"),
    "boxes.playground.new": ("new reply", "新回复"),
    "boxes.playground.new_by": ("new reply · {by} · {seconds}s", "新回复 · {by} · {seconds} 秒"),
    # Who answered when the prompt was sent unchanged with no model named (models/playground.py's REPLAYED).
    "boxes.playground.replayed": ("the recording", "录下的回复"),
    "boxes.playground.ask_again": ("ctrl+s asks again", "ctrl+s 再问一次"),
    "boxes.playground.empty": ("(empty)", "（空）"),
    "boxes.playground.diff": ("── diff against the recorded reply ──", "── 和录下的回复对比 ──"),
    "boxes.playground.asking": ("asking {model}…", "正在问 {model}…"),
    "boxes.playground.asking_configured": ("asking the configured model…", "正在问配置好的模型…"),
    "boxes.playground.same": (
        "the same reply · f: fork the run with this reply · tab: edit again · ctrl+s: send · esc: close",
        "回复一样 · f：用这条回复分叉 · tab：再编辑 · ctrl+s：发送 · esc：关闭",
    ),
    "boxes.playground.differs": (
        "{lines} diff line(s) · f: fork the run with this reply · tab: edit again · ctrl+s: send · esc: close",
        "{lines} 行不同 · f：用这条回复分叉 · tab：再编辑 · ctrl+s：发送 · esc：关闭",
    ),
    "boxes.playground.nothing_to_fork": (
        "the same reply as recorded: a fork would change nothing (edit the prompt, ctrl+s)",
        "和录下的回复一样：分叉什么也不会改变（改一改提示词，再按 ctrl+s）",
    ),
    # Tutorials: the picker (T).
    "boxes.tutorials.title": ("Tutorials · narration in {language}", "教程 · 讲解语言：{language}"),
    "boxes.tutorials.language": ("English", "中文"),
    "boxes.tutorials.keys": (
        "↑/↓ choose · enter opens (a name opens part 1) · esc cancels",
        "↑/↓ 选择 · enter 打开（选名字打开第 1 部分）· esc 取消",
    ),
    "boxes.tutorials.part": ("{count} part", "{count} 个部分"),
    "boxes.tutorials.parts": ("{count} parts", "{count} 个部分"),
    "boxes.tutorials.part_number": ("part {number}/{total}", "第 {number}/{total} 部分"),
}
