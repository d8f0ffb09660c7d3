"""Terminal text: untrusted text shown literally, and mixed Chinese and English wrapped by cell width."""
