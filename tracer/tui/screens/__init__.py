"""The debugger's screens and dialogs."""
