"""Bridges to other runtimes: a LangChain run traced as loopscope events (needs `loopscope[langchain]`)."""
