"""Tools: the Tool, how functions become tools, their arguments, parallel calls and the numexpr calculator."""
