"""The debugger's panes: widgets that show one part of the session and own their keys."""
