"""Re-executing recorded runs: cassettes, record modes, verify, fork, the replay provider, and the one replayed-executor builder."""
