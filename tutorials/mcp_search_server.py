"""The mcp-search tutorial's MCP server: a web search whose answer comes in one vendor's shape, then another's.

Run by the tutorial as `python -m tutorials.mcp_search_server` (stdio); written with the MCP SDK's
server API, as any small server would be. Search vendors wrap the same pages differently, and which
vendor answers is not up to the agent: this server alternates, the first answer wrapped in
{"code": 0, "data": {"pages": [...]}}, the second bare as {"pages": [...]}.
"""

from __future__ import annotations

import json

from mcp.server import MCPServer

server = MCPServer("flower-search")

PAGES = {
    "roses": [
        {
            "title": "Kunming flower auction: today's prices",
            "url": "https://example.com/kunming-auction",
            "snippet": "Red roses, grade A, 20 stems: 25-30 yuan at the morning auction.",
        },
        {
            "title": "Wholesale roses by the bunch",
            "url": "https://example.com/wholesale-roses",
            "snippet": "A bunch of 20 red roses wholesales for about 28 yuan.",
        },
    ],
    "delivery": [
        {
            "title": "Same-day flower delivery in the city",
            "url": "https://example.com/delivery",
            "snippet": "Delivery within the city centre: 15 yuan a bouquet.",
        }
    ],
}
answered = 0  # how many searches this process has answered: the vendor alternates with each


@server.tool()
def search(query: str) -> str:
    """Search the web. Answers with the pages found, as JSON (title, url, snippet of each)."""
    global answered
    answered += 1
    pages = PAGES["delivery" if "deliver" in query.lower() else "roses"]
    if answered % 2 == 1:  # vendor A: a status code, the pages inside "data"
        return json.dumps({"code": 0, "data": {"pages": pages, "total": len(pages)}})
    return json.dumps({"pages": pages})  # vendor B: the pages at the top


if __name__ == "__main__":
    server.run()
