"""Words of the `loopscope` command itself: what the user got wrong on the command line, in one line each."""

MESSAGES: dict[str, tuple[str, str]] = {
    "cli.error.unknown_language": (
        "unknown language {given!r}; available: {languages}",
        "不认识的语言 {given!r}；可选：{languages}",
    ),
    # run
    "cli.run.error.two_agents": (
        "run {scenario} or --agent {agent}: name one agent",
        "运行 {scenario} 还是 --agent {agent}：只能指定一个 agent",
    ),
    "cli.run.error.nothing_named": (
        "name what to run: a scenario (e.g. `loopscope run rose-pricing`) or your own agent "
        "(`loopscope run my_agent:build --input TEXT`)",
        "请指明要运行什么：一个场景（例如 `loopscope run rose-pricing`）或你自己的 agent"
        "（`loopscope run my_agent:build --input TEXT`）",
    ),
    "cli.run.error.fixture_live": (
        "--fixture replays a recording; leave it out when running live with --model/--live",
        "--fixture 用来重放录制；用 --model/--live 实时运行时请去掉它",
    ),
    # record
    "cli.record.error.no_replies": (
        "{agent} has no scripted replies: give them with --replies FILE.json, or record it against "
        "a model, e.g. --model openai:gpt-4o-mini, --model replay:TRACE.jsonl, or --live",
        "{agent} 没有预先写好的回复：用 --replies FILE.json 给出，或者对着一个模型录制，"
        "例如 --model openai:gpt-4o-mini、--model replay:TRACE.jsonl，或 --live",
    ),
    "cli.record.error.tools": ("{agent}: {problem}", "{agent}：{problem}"),
    # a scenario or the user's agent, as run, record and debug --live name it
    "cli.agent.error.inputs_not_json": (
        "--inputs is not JSON ({problem} at character {position}); "
        """give an object such as '{{"input": "What do roses cost?"}}'""",
        "--inputs 不是 JSON（第 {position} 个字符处：{problem}）；"
        """请给一个对象，例如 '{{"input": "What do roses cost?"}}'""",
    ),
    "cli.agent.error.inputs_not_object": (
        "--inputs must be a JSON object, not {type}",
        "--inputs 必须是一个 JSON 对象，而不是 {type}",
    ),
    "cli.agent.error.replies_unreadable": ("--replies {path}: {problem}", "--replies {path}：{problem}"),
    "cli.agent.error.replies_not_json": (
        "--replies {path} is not JSON ({problem}); give a list of replies",
        "--replies {path} 不是 JSON（{problem}）；请给一个回复列表",
    ),
    "cli.agent.error.replies_for_scenario": (
        "--replies is for your own agent; scenario {name!r} brings its own replies",
        "--replies 是给你自己的 agent 用的；场景 {name!r} 自带回复",
    ),
    "cli.agent.error.inputs_for_scenario": (
        "--input/--inputs are for your own agent; scenario {name!r} asks its own question",
        "--input/--inputs 是给你自己的 agent 用的；场景 {name!r} 自带问题",
    ),
    "cli.agent.error.no_question": (
        "what should {name} be asked? give --input TEXT (or --inputs JSON)",
        "要问 {name} 什么？请给 --input TEXT（或 --inputs JSON）",
    ),
    "cli.agent.error.no_recording": (
        "no recording at {path}; record one with `loopscope record {scenario} -o {path}`",
        "{path} 没有录制文件；用 `loopscope record {scenario} -o {path}` 录制一个",
    ),
    "cli.agent.error.own_agent_hint": (
        "; or name your own agent as MODULE:FUNCTION",
        "；或者用 MODULE:FUNCTION 指明你自己的 agent",
    ),
    # debug
    "cli.debug.error.trace_or_live": (
        "give a trace file or --live SCENARIO (one of them), e.g. `loopscope debug fixtures/rose_pricing.jsonl`",
        "请给一个 trace 文件或 --live SCENARIO（二者选一），例如 `loopscope debug fixtures/rose_pricing.jsonl`",
    ),
    "cli.debug.error.record_without_live": ("--record only applies to --live runs", "--record 只用于 --live 运行"),
    "cli.debug.error.max_turns_without_live": (
        "--max-turns only applies to --live runs (a recording is re-run with its own)",
        "--max-turns 只用于 --live 运行（录制的运行按它自己的上限重跑）",
    ),
    "cli.debug.error.trace_id_without_trace": (
        "--trace-id picks a trace of another tool's file given as TRACE",
        "--trace-id 用来从作为 TRACE 给出的其他工具的文件里挑一个 trace",
    ),
    "cli.debug.error.break": ("--break {spec!r}: {problem}", "--break {spec!r}：{problem}"),
    # another tool's file holding several traces (debug, diff, export …): which one
    "cli.trace_id.error.own_trace": (
        "{path}: --trace-id picks a trace of another tool's file; this is a loopscope trace",
        "{path}：--trace-id 用来从其他工具的文件里挑一个 trace；这个文件本身就是 loopscope trace",
    ),
    "cli.trace_id.error.none_picked": (
        "{path}: no trace picked; give one with --trace-id ID",
        "{path}：没有选中任何 trace；请用 --trace-id ID 指定一个",
    ),
    "cli.trace_id.error.too_many": (
        "--trace-id given {given} times; give it at most {most} times",
        "--trace-id 给了 {given} 次；最多只能给 {most} 次",
    ),
    "cli.trace_id.holds": ("{file} holds {count} traces:", "{file} 里有 {count} 个 trace："),
    "cli.trace_id.spans": ("{count} spans", "{count} 个 span"),
    "cli.trace_id.converted": ("converted", "已转换"),
    "cli.trace_id.more": ("  … and {count} more (type an id)", "  …… 还有 {count} 个（输入一个 id）"),
    "cli.trace_id.which": ("Which one? [1-{last} or an id]: ", "选哪一个？[1-{last} 或一个 id]："),
    # what run and record print around the run
    "cli.warning": ("warning: {text}", "警告：{text}"),
    "cli.run.left_recording": ("\nThe run left the recording: {error}", "\n这次运行偏离了录制：{error}"),
    "cli.run.ended_with": ("\nThe run ended with {error_type}: {error}", "\n这次运行以 {error_type} 结束：{error}"),
    "cli.run.ran_live": ("ran live against {spec}", "对着 {spec} 实时运行"),
    "cli.run.replayed": ("replayed {name} offline", "离线重放了 {name}"),
    "cli.run.ran_langchain": (
        "ran LangChain's own agent offline (its scripted replies)",
        "离线运行了 LangChain 自己的 agent（用它的脚本回复）",
    ),
    "cli.run.done": ("\n{done} in {took}s", "\n{done}，用时 {took}s"),
    "cli.run.trace_written": ("; trace written to {path}", "；trace 已写入 {path}"),
    # `record MODULE:ATTR` (and `debug --live MODULE:ATTR`) of a framework's agent.
    "cli.framework.ask": (
        "what should {agent} be asked? give --input TEXT",
        "要问 {agent} 什么？请给出 --input TEXT",
    ),
    "cli.framework.ask_or_state": (
        "what should {agent} be asked? give --input TEXT (or its input state as --inputs JSON)",
        "要问 {agent} 什么？请给出 --input TEXT（或者用 --inputs JSON 给出它的输入状态）",
    ),
    "cli.framework.raised": (
        "loopscope: the agent raised {error_type}: {error}",
        "loopscope：智能体抛出了 {error_type}：{error}",
    ),
    "cli.framework.no_max_turns": (
        "a turn limit of {turns} is a framework agent's own (the OpenAI Agents SDK's Runner.run(max_turns=N), "
        "pydantic-ai's UsageLimits(request_limit=N), LangGraph's recursion_limit); a loopscope agent sets "
        "AgentExecutor(max_iterations=N) in its own code",
        "{turns} 轮的上限属于框架智能体自己（OpenAI Agents SDK 的 Runner.run(max_turns=N)、pydantic-ai 的 "
        "UsageLimits(request_limit=N)、LangGraph 的 recursion_limit）；loopscope 的智能体在自己的代码里设置 "
        "AgentExecutor(max_iterations=N)",
    ),
    "cli.framework.no_model": (
        "the agent has no model (Agent(...) without one, given at each run by the app): loopscope runs it with its "
        "own model, so give the Agent its model, or record it offline: `loopscope record MODULE:ATTR --replies FILE`",
        "这个智能体没有模型（Agent(...) 里没给，由应用在每次运行时给）：loopscope 用它自己的模型运行它，"
        "所以请把模型给 Agent，或者离线录制：`loopscope record MODULE:ATTR --replies FILE`",
    ),
    "cli.framework.context_needed": (
        "{who} takes {what} of type {name}, which loopscope makes with no arguments to run it, but {name}() "
        "raised {error_type}: {error}; give {name}'s fields defaults",
        "{who}接收类型为 {name} 的 {what}，loopscope 不带参数创建它来运行，但 {name}() 抛出了 "
        "{error_type}：{error}；请给 {name} 的字段设默认值",
    ),
    "cli.framework.agent_named": ("agent {agent}", "智能体 {agent} "),
    "cli.framework.the_agent": ("the agent", "这个智能体"),
    "cli.framework.state_hint": (
        " (this graph's state has no messages but {keys}: give it as --inputs '{example}')",
        "（这个图的状态里没有 messages，只有 {keys}：请用 --inputs '{example}' 给出）",
    ),
    "cli.framework.recorded": (
        "recorded {count} events of {agent} ({framework}, {how}) to {path}",
        "已把 {agent}（{framework}，{how}）的 {count} 个事件录制到 {path}",
    ),
    "cli.framework.offline": ("offline from --replies", "离线，回复来自 --replies"),
    "cli.framework.own_model": ("with its own model", "用它自己的模型"),
    "cli.record.kept": (
        "kept {path} (it exists; --mode rewrite records it again)",
        "保留了 {path}（它已存在；用 --mode rewrite 重新录制）",
    ),
    "cli.record.progress": ("recording {name}", "正在录制 {name}"),
    "cli.record.so_far": ("{events} events, round {round}", "{events} 个事件，第 {round} 轮"),
    "cli.record.recorded": (
        "recorded {count} events of {name} to {path}",
        "把 {name} 的 {count} 个事件录制到了 {path}",
    ),
    "cli.record.recorded_live": (
        "recorded {count} events of {name} live from {spec} to {path}",
        "把 {name} 对着 {spec} 实时运行的 {count} 个事件录制到了 {path}",
    ),
    "cli.record.ended_as_intended": (
        "the run ended with {error_type} as this scenario intends",
        "这次运行以 {error_type} 结束，正如这个场景的本意",
    ),
    "cli.record.ended": ("the run ended with {error_type}: {error}", "这次运行以 {error_type} 结束：{error}"),
    # export, fork, diff
    "cli.export.error.no_format": (
        "choose a format: --mermaid, --format otlp-json, or --otlp URL (a collector)",
        "请选择一种格式：--mermaid、--format otlp-json，或 --otlp URL（一个收集器）",
    ),
    "cli.export.error.mermaid_one": (
        "--mermaid takes one trace, got {count}",
        "--mermaid 只接受一个 trace，却给了 {count} 个",
    ),
    "cli.export.error.html_one": (
        "--html takes one trace, got {count} (diff --html compares two)",
        "--html 只接受一个 trace，却给了 {count} 个（diff --html 用来比较两个）",
    ),
    "cli.export.error.no_otel": (
        "OTLP export needs the otel extra ({package} is not installed): pip install 'loopscope[otel]'",
        "OTLP 导出需要 otel 扩展（没有安装 {package}）：pip install 'loopscope[otel]'",
    ),
    "cli.fork.error.two_answers": (
        "--stop-at-change and --model each decide what answers a changed prompt: give one",
        "--stop-at-change 和 --model 都决定由谁回答改过的提示词：只能给其中一个",
    ),
    "cli.error.cannot_write": (
        "cannot write {path}: {problem}; nothing was written",
        "无法写入 {path}：{problem}；什么也没有写",
    ),
    "cli.error.in_file": ("{path}: {problem}", "{path}：{problem}"),
    "cli.charts.error.no_plotext": (
        "{missing}; `loopscope runs --html OUT.html` draws them without it",
        "{missing}；`loopscope runs --html OUT.html` 不需要它也能画出图表",
    ),
    # serve, call, prompt, import, models, fixtures
    "cli.serve.error.trace_or_tutorial": (
        "give a trace file or --tutorial NAME (one of them), e.g. `loopscope serve fixtures/rose_pricing.jsonl`",
        "请给一个 trace 文件或 --tutorial NAME（二者选一），例如 `loopscope serve fixtures/rose_pricing.jsonl`",
    ),
    "cli.serve.error.port": (
        "--port {port}: choose a port between 1 and 65535",
        "--port {port}：请选 1 到 65535 之间的端口",
    ),
    "cli.call.error.prompt_file": ("--prompt-file {path}: {problem}", "--prompt-file {path}：{problem}"),
    "cli.call.error.not_utf8": (
        "--prompt-file {path}: not UTF-8 text ({reason} at byte {at})",
        "--prompt-file {path}：不是 UTF-8 文本（第 {at} 个字节处：{reason}）",
    ),
    "cli.prompt.error.output": ("-o {path}: {problem}", "-o {path}：{problem}"),
    "cli.import.error.no_file": ("{path}: no such file", "{path}：没有这个文件"),
    "cli.models.error.listing": ("could not list models: {problem}", "无法列出模型：{problem}"),
    "cli.fixtures.error.cannot_rewrite": (
        "{path}: {state}, so it cannot be rewritten from its own re-run; record it anew (`loopscope record AGENT -o PATH`)",
        "{path}：{state}，所以不能用它自己的重新运行来改写；请重新录制（`loopscope record AGENT -o PATH`）",
    ),
    "cli.fixtures.error.none": (
        "no fixtures to check: name trace files or folders",
        "没有要检查的录制文件：请给出 trace 文件或文件夹",
    ),
}
