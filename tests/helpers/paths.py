"""Where the project's files are, for tests anywhere in the tree."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
ROSE = FIXTURES / "rose_pricing.jsonl"
