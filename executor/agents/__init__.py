"""The agents: what plan() is for ReAct text, tool calling and structured output, and the prompt and parser they use."""
