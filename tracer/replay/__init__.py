"""Re-executing recorded runs: cassettes, record modes, verify, fork, the replay provider, the one replayed-executor builder."""
