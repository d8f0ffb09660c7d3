"""The book's run: rose prices from Search, a 5% markup from the Calculator, then the final answer."""

from __future__ import annotations

import executor  # its names load on first use: opening the tutorial builds this scenario, not its tools

from .scenario import Scenario

QUESTION = "目前市场上玫瑰花的一般进货价格是多少？如果我在此基础上加价5%，应该如何定价？"

# Ten snippets a news search might return; the third carries the price the agent uses.
NEWS_SNIPPETS = [
    "1. 情人节前夕鲜花市场升温，多地花店表示玫瑰订单比平时多出两到三成。",
    "2. 云南斗南花卉市场：受天气影响，本周红玫瑰拍卖均价小幅上涨。",
    "3. 花店老板采访：今年基本上进货价都在25~30元一扎（20支），节日前后还会波动。",
    "4. 业内人士提醒，进口厄瓜多尔玫瑰价格明显高于国产品种。",
    "5. 电商平台数据显示，520期间玫瑰花束销量同比增长约15%。",
    "6. 冷链物流改善后，昆明到北京的鲜切花运输损耗降到一成以下。",
    "7. 七夕将至，部分城市出现“一花难求”，零售价格较平日翻倍。",
    "8. 花农表示，今年种植成本上升，批发价格整体高于去年同期。",
    "9. 专家建议消费者错峰购买鲜花，节后价格通常回落三到四成。",
    "10. 鲜花行业报告：玫瑰仍是销量第一的切花品类，占比超过三成。",
]


def search(query: str) -> str:
    """The scenario's search engine: a fixed page of results, so the run is the same every time."""
    return "\n".join(NEWS_SNIPPETS)


def build_tools(model: executor.ChatModel) -> list[executor.Tool]:
    return [
        executor.Tool(
            name="Search",
            func=search,
            deterministic=False,
            description="Useful for finding current facts, such as today's market prices.",
        ),
        executor.llm_math_tool(model),
    ]


REPLIES = [
    # round 1: the model asks for Search (and starts inventing an observation: the stop sequence cuts it)
    " 我需要先找到目前市场上玫瑰花的一般进货价格，然后在这个价格基础上加价5%来计算定价。\n\n"
    "Action: Search\nAction Input: 目前市场上玫瑰花的进货价格\nObservation: 玫瑰花大约",
    # round 2: the model hands the arithmetic to the Calculator
    " 从搜索结果可以看到，玫瑰花的进货价格有一定波动，今年基本在25~30元之间。"
    "我们可以取25元作为计算基础，在此基础上加价5%。\n\n"
    "Action: Calculator\nAction Input: 25 * 1.05",
    # the Calculator's own model call: it writes the expression, numexpr computes it
    '```text\n25 * 1.05\n```\n...numexpr.evaluate("25 * 1.05")...\n```output\n26.25\n```',
    # round 3: the final answer
    " I now know the final answer.\n"
    "Final Answer: 目前市场上玫瑰花的一般进货价格大约在每扎25~30元。以25元计算，加价5%后的定价应为26.25元。",
]

SCENARIO = Scenario(
    name="rose-pricing",
    title="Rose pricing: Search, then Calculator, then Final Answer",
    question=QUESTION,
    build_tools=build_tools,
    replies=REPLIES,
)
