"""A run as OpenTelemetry spans in the OpenInference and GenAI conventions: the tree, its attributes, the wire."""
