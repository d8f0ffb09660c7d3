"""The user's agent: how it is named, which ones may run (trust), and how it is loaded and built."""
