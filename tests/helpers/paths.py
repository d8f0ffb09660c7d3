"""Where the project's files are, for tests anywhere in the tree."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
ROSE = FIXTURES / "rose_pricing.jsonl"


def holding_kind(paths, kind: str) -> set[Path]:
    """The traces among paths with at least one event of this kind, read line by line with json alone (not
    loopscope's reader), so a test's expectation follows the fixtures as they are re-recorded."""
    import json

    holding = set()
    for path in paths:
        for line in Path(path).read_text(encoding="utf-8").splitlines()[1:]:
            if line.strip() and json.loads(line).get("kind") == kind:
                holding.add(Path(path))
                break
    return holding
