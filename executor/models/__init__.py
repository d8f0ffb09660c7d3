"""Language models as the loop sees them: the ChatModel protocol, the narrated call, messages, configuration and providers."""
