"""Finding trace files under the paths a user names: which files, and the stamp that says whether one changed."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

# A trace, and what a recording that did not finish keeps beside FILE (tracer/trace/writer.py): the
# partial run after Ctrl-C, a failed write, or a run another one overwrote. In-progress `.partial` files
# are left alone.
TRACE_SUFFIXES = (".jsonl", ".jsonl.interrupted", ".jsonl.failed", ".jsonl.lost")
IMPORT_SUFFIXES = (*TRACE_SUFFIXES, ".json")
# Folders a recursive walk does not enter unless they are named: version control, environments,
# caches. Hidden folders (.git, .venv, .tox …) are skipped by their leading dot.
SKIPPED_FOLDERS = frozenset({"node_modules", "__pycache__", "site-packages", "venv"})
MAX_PROBLEMS = 20  # folders that could not be read, said one line each, up to this many


@dataclass(frozen=True)
class Stamp:
    """What says a file is the one the catalogue read: its size, modification and change times, inode.
    The change time cannot be set back by a user (touch -d, tar and cp -p set the modification time
    only), so a file rewritten to the same size and mtime still looks changed."""

    size: int
    mtime_ns: int
    ctime_ns: int
    inode: int

    @classmethod
    def of(cls, info: os.stat_result) -> Stamp:
        return cls(info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino)


@dataclass(frozen=True)
class Found:
    path: str  # absolute, as the user's paths lead to it (symbolic links in it kept)
    info: os.stat_result

    @property
    def stamp(self) -> Stamp:
        return Stamp.of(self.info)


@dataclass
class Finding:
    """The files found, and what the walk had to pass over."""

    files: list[Found] = field(default_factory=list)
    folders: list[str] = field(default_factory=list)  # the folders walked recursively (absolute)
    problems: list[str] = field(default_factory=list)  # one line each: a path that could not be read
    json_passed: int = 0  # .json files in the folders walked, not opened (other tools' exports, without --imports)


def find_traces(paths: Sequence[str | os.PathLike[str]], imports: bool = False) -> Finding:
    """Every trace file under `paths` (files named are taken as they are, folders walked recursively).
    With `imports`, .json files too (other tools' exports)."""
    suffixes = IMPORT_SUFFIXES if imports else TRACE_SUFFIXES
    finding = Finding()
    seen: set[str] = set()
    for named in paths:
        path = os.path.abspath(os.fspath(named))
        try:
            info = os.stat(path)
        except OSError as error:
            finding.problems.append(f"{path}: {error.strerror or error}")
            continue
        if stat.S_ISDIR(info.st_mode):
            finding.folders.append(path)
            found = _walk(path, suffixes, finding)
        else:
            found = iter([Found(path, info)])  # a file named is read whatever its name
        for item in found:
            if item.path not in seen:
                seen.add(item.path)
                finding.files.append(item)
    finding.files.sort(key=lambda item: item.path)
    del finding.problems[MAX_PROBLEMS:]
    return finding


def _walk(root: str, suffixes: tuple[str, ...], finding: Finding) -> Iterator[Found]:
    """Files ending in `suffixes` below `root`; symbolic links to folders are not followed (no loops).
    The .json files left out are counted, so that a folder of exports is not listed as simply empty."""
    problems = finding.problems
    pending = [root]
    while pending:
        folder = pending.pop()
        try:
            with os.scandir(folder) as entries:
                listed = list(entries)
        except OSError as error:
            problems.append(f"{folder}: {error.strerror or error}")
            continue
        for entry in listed:
            try:
                if entry.is_dir(follow_symlinks=False):
                    if not entry.name.startswith(".") and entry.name not in SKIPPED_FOLDERS:
                        pending.append(entry.path)
                elif entry.name.endswith(suffixes) and not entry.name.startswith("."):
                    yield Found(entry.path, entry.stat())
                elif entry.name.endswith(".json") and not entry.name.startswith("."):
                    finding.json_passed += 1
            except OSError as error:  # a link to nowhere, or a file removed while we walk
                problems.append(f"{entry.path}: {error.strerror or error}")
