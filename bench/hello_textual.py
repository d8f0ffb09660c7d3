"""The start-up baseline bench_startup.py compares against: a hello-world Textual app, a Static and a Footer."""

from textual.app import App, ComposeResult
from textual.widgets import Footer, Static


class Hello(App[None]):
    BINDINGS = [("q", "quit", "quit the hello-world app")]

    def compose(self) -> ComposeResult:
        yield Static("Hello from Textual")
        yield Footer()


if __name__ == "__main__":
    Hello().run()
