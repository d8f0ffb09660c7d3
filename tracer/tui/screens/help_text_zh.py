"""The `?` screen's explanations in Chinese (the breakpoint and condition syntax stays as it is typed)."""

from __future__ import annotations

MOTIONS_ZH = """\
移动按事件走，就像 pdb 按行走。大写字母表示向后：回放总能往回退。
  单步      下一个事件，不管它来自哪一层
  下一步    这一层或调用方的下一个事件（跳过这一层调用的一切）
  跳出      这一层返回之后的第一个事件（向后：进入之前）
  继续      跑到下一个断点，或者结尾
下一步、跳出和继续都会停在途经的断点上，和 pdb 一样。
实时模式（debug --live）下，停在你自己的工具的 tool_start 时：s 逐行进入它的函数（源码窗格标出当前行，
变量窗格显示真实的局部变量）；进入后 s/n 运行一行，r 运行到函数结束（下一个事件是它的 tool_end），c 继续。
录制的轨迹没有可运行的行：在那里 s 只走到下一个事件。
"""

BREAKPOINTS_ZH = """\
断点（B 添加一个；在命令行里用 `loopscope debug TRACE --break "..."` 设置）。写法保持英文：
  tool_error                  一种事件类型（kind=tool_error 也可以）
  tool=Calculator             这个工具开始运行的地方（或者被请求却不存在的地方）
  iteration=2                 第 2 轮开始的地方
  method=_perform_agent_action  这个方法每次调用的第一个事件
  line=executor/agent_executor.py:95   这一行源码（b 在当前行上开关断点）
  tools.py:12                 你的工具里的一行（相对于你的 agent 所在的文件夹）：实时模式下运行停在这一行；
                              在录制的轨迹里，停在那次调用的 tool_start/tool_end
  if "25" in tool_input       条件成立的任何事件
  tool=Calculator if iteration >= 2    上面任何一种，再用条件收窄
  temp ...   第一次停下后删除        ignore=N ...   先放过 N 次再停
断点保存在轨迹旁边的 TRACE.jsonl.breakpoints.json 里。
"""

CONDITIONS_ZH = """\
条件比较事件的字段：== != < <= > >= in、not in、and、or、not、( )。
值："text" 或 'text'、数字、true/false、None、[列表]。任何内容都不会被当作 Python 求值。
字段：kind seq iteration tool method line file depth frames，以及事件自己的字段
（tool_input、observation、text、prompt、error、is_finish、action.tool ……）。事件没有的字段，比较结果为假。
对 invalid_tool 来说 `tool` 指被请求的工具，对 step 来说指 action.tool。
搜索（/）不区分大小写，除非搜索的文字里有大写字母。
"""

# The help screen's longer words for a key, by binding id (the footer's short ones are in chrome.py).
EXPLAINED_ZH = {
    "step-forward": "单步：走到下一个事件，进入被调用的一切",
    "next-forward": "下一步：跳过调用，走到这一层或调用方的下一个事件",
    "out-forward": "跳出：一直运行到当前这一层返回",
    "continue-forward": "继续：跑到下一个断点（实时模式：推动执行器往下跑）",
    "step-back": "后退一个事件",
    "next-back": "下一步（向后）：这一层或调用方的上一个事件",
    "out-back": "向后跳出：回到刚进入这一层之前",
    "continue-back": "向后继续：回到上一个断点，或者开头",
    "toggle-breakpoint": "在当前行上开关断点（源码窗格有焦点时是光标所在行）",
    "search": "搜索事件里的文字（智能大小写）",
    "fork": "分叉：改这个事件的模型回复或工具观察结果，重跑轨迹，打开分叉",
    "filter": "筛选时间线：事件类型、tool=名字、iteration=N、`if 条件`；隐藏的会计数",
    "step-within-filter": "在筛选内移动：s n r c（以及向后）只停在显示出来的事件上",
    "edit-prompt": "在一次模型调用处：编辑它的原样提示词，再发一次（ctrl+s），把新回复和录下的并排对照；f 用它分叉这次运行",
    "diff": "把这次运行和它的父运行（分叉的）或你指定的轨迹对比，按转移对齐",
    "scroll-pane-down": "滚动右边显示的窗格（讲解、变量、提示词 ……）；有焦点的窗格优先",
    "scroll-pane-up": "向上滚动右边显示的窗格",
    "wide-source": "加宽源码：隐藏时间线和调用栈，让长的源码行放得下（再按 z 恢复）",
    "tutorials": "教程：选一个（或它的某一部分），带着讲解打开",
}
