"""The catalogue: an SQLite cache of each trace's row and event shapes, keyed by path and stamp, never trusted over the file."""

from __future__ import annotations

import json
import os
import sqlite3
import stat
from array import array
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from executor import __version__

from .finding import Stamp
from .run_row import RunRow
from .summary import Shape, Summary

ENV_CATALOGUE = "LOOPSCOPE_CATALOGUE"
FORMAT = "loopscope-runs-catalogue/8"  # 5: rows carry scores; 6: and billed token parts; 7: a fork's event; 8: scores given on an event kept apart. Bump when a row or shape is computed differently: old ones are dropped
SQLITE_MAGIC = b"SQLite format 3\x00"
# A file changed within this long of being read may change again with the same stamp (a filesystem's
# clock ticks coarsely): its row is read again next time, as git treats a "racily clean" file.
RACY_NS = 1_000_000_000
QUERY_CHUNK = 500  # paths per `IN (...)`: SQLite allows 32,766 variables, older builds 999
# Written into the file's header at creation (PRAGMA application_id): the mark that loopscope made this
# database, checked before anything in it is dropped. "Lsc1" as a big-endian 32-bit number.
APPLICATION_ID = int.from_bytes(b"Lsc1", "big")
INT64 = range(-(2**63), 2**63)  # what an SQLite INTEGER holds
BUSY_WAIT = 2.0  # seconds to wait for another loopscope writing the catalogue before going on without it
_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE runs (
    path TEXT PRIMARY KEY, size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL, ctime_ns INTEGER NOT NULL,
    inode INTEGER NOT NULL, read_ns INTEGER NOT NULL, row TEXT NOT NULL, shapes BLOB NOT NULL
);
CREATE TABLE shapes (id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE);
"""


def default_location(environ: os._Environ[str] | dict[str, str] | None = None) -> Path:
    """$XDG_CACHE_HOME/loopscope/runs.sqlite (~/.cache/loopscope/runs.sqlite): the user's own cache,
    never a file in a folder of traces someone else may have written."""
    environ = os.environ if environ is None else environ
    cache = environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(cache) / "loopscope" / "runs.sqlite"


def chosen_location(named: str | os.PathLike[str] | None) -> tuple[Path, bool]:
    """(where the catalogue is, whether loopscope owns that place): the file `named` (--catalogue, else
    $LOOPSCOPE_CATALOGUE: the command reads the user's variable), else the default. Only the default is
    ours to replace when it holds something that is not SQLite."""
    return (Path(named), False) if named else (default_location(), True)


@dataclass(frozen=True)
class Stored:
    """A catalogue entry as read back: trusted only while the file's stamp is the same."""

    stamp: Stamp
    read_ns: int
    row_json: str

    def fresh_for(self, stamp: Stamp) -> bool:
        return self.stamp == stamp and max(stamp.mtime_ns, stamp.ctime_ns) < self.read_ns - RACY_NS

    def row(self, path: str) -> RunRow | None:
        """The stored row, or None when it does not validate or names another file (then the file is read)."""
        try:
            row = RunRow.model_validate_json(self.row_json)
        except (ValidationError, ValueError):
            return None
        return row if row.path == path else None


class Catalogue:
    """Open with `Catalogue.open(path)`. Every failure of the file (corrupt, locked, read-only, not a
    catalogue) leaves a working catalogue: rebuilt, or kept in memory for this listing, and `note` says so."""

    def __init__(self, connection: sqlite3.Connection, path: Path | None, note: str | None = None) -> None:
        self.db, self.path, self.note = connection, path, note
        self._shape_ids: dict[Shape, int] | None = None

    # -- opening ----------------------------------------------------------------------------------
    @classmethod
    def in_memory(cls, note: str | None = None) -> Catalogue:
        connection = sqlite3.connect(":memory:", isolation_level=None)
        connection.executescript(_SCHEMA)
        _write_meta(connection)
        return cls(connection, None, note)

    @classmethod
    def open(cls, path: str | os.PathLike[str], owned: bool = False) -> Catalogue:
        path = Path(path)
        refusal = _refusal(path, owned)
        if refusal:
            return cls.in_memory(f"{refusal}; listing without a catalogue")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            return cls._connect(path, owned)
        except sqlite3.Error as error:
            if _transient(error):
                return cls.in_memory(f"catalogue {path} is busy (another loopscope is writing it); listing without it")
            return cls.in_memory(f"catalogue {path} cannot be used ({error}); listing without it")
        except OSError as error:
            return cls.in_memory(f"catalogue {path} cannot be used ({error.strerror or error}); listing without it")

    @classmethod
    def _connect(cls, path: Path, owned: bool) -> Catalogue:
        connection = _connection(path)
        try:
            ours = _made_by_loopscope(connection)
            if not ours and connection.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
                if not owned:  # someone else's database: its tables may well be called runs and meta
                    connection.close()
                    return cls.in_memory(f"{path} is an SQLite database but not a loopscope catalogue; not touching it")
                # Our own cache's place (default_location) holding what no loopscope made: ours to replace.
                connection.executescript("".join(f"DROP TABLE IF EXISTS {t};" for t in ("meta", "runs", "shapes")))
                return cls._fresh(connection, path, None)
            if not ours:  # a new, empty file
                return cls._fresh(connection, path, None)
            found = connection.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
        except sqlite3.OperationalError as error:
            if _transient(error):
                raise
            connection.close()
            return cls._rebuilt(path, str(error))  # marked as ours, yet its tables are not: damaged
        except sqlite3.DatabaseError as error:  # "file is not a database", "disk image is malformed"
            connection.close()
            return cls._rebuilt(path, str(error))
        if found is None or found[0] != FORMAT or _version(connection) != __version__:
            connection.executescript("DROP TABLE IF EXISTS runs; DROP TABLE IF EXISTS shapes; DROP TABLE meta;")
            return cls._fresh(connection, path, None)
        connection.execute("PRAGMA synchronous = NORMAL")  # a cache: a crash may lose the last write, no more
        return cls(connection, path)

    @classmethod
    def _rebuilt(cls, path: Path, why: str) -> Catalogue:
        """A damaged catalogue is replaced by an empty one (it is a cache: every trace is read again)."""
        path.unlink()
        return cls._fresh(_connection(path), path, f"catalogue {path} was damaged ({why}); rebuilt it")

    @classmethod
    def _fresh(cls, connection: sqlite3.Connection, path: Path, note: str | None) -> Catalogue:
        connection.executescript(_SCHEMA)
        connection.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        _write_meta(connection)
        return cls(connection, path, note)

    def close(self) -> None:
        self.db.close()

    # -- reading ----------------------------------------------------------------------------------
    def stored_under(self, folder: str) -> dict[str, Stored]:
        """Every entry for a file below `folder` (an absolute path)."""
        prefix = folder.rstrip(os.sep) + os.sep
        query = "SELECT path, size, mtime_ns, ctime_ns, inode, read_ns, row FROM runs WHERE path >= ? AND path < ?"
        # Paths below the folder sort between "folder/" and "folder0" ("0" follows "/").
        return self._stored(query, (prefix, prefix[:-1] + chr(ord(os.sep) + 1)))

    def stored_at(self, paths: Sequence[str]) -> dict[str, Stored]:
        found: dict[str, Stored] = {}
        for path in paths:
            found.update(
                self._stored(
                    "SELECT path, size, mtime_ns, ctime_ns, inode, read_ns, row FROM runs WHERE path = ?", (path,)
                )
            )
        return found

    def _stored(self, query: str, parameters: tuple[str, ...]) -> dict[str, Stored]:
        try:
            rows = self.db.execute(query, parameters).fetchall()
        except sqlite3.DatabaseError as error:
            self._lost(error)
            return {}
        found = {}
        for path, size, mtime_ns, ctime_ns, inode, read_ns, row in rows:
            if all(isinstance(v, int) for v in (size, mtime_ns, ctime_ns, inode, read_ns)) and isinstance(row, str):
                found[path] = Stored(Stamp(size, mtime_ns, ctime_ns, inode), read_ns, row)
        return found

    def shapes_of(self, paths: Iterable[str]) -> dict[str, frozenset[Shape] | None]:
        """Each run's event shapes; None for one the catalogue cannot give whole (its file is read instead)."""
        wanted = list(paths)
        blobs: dict[str, object] = {}
        try:
            for start in range(0, len(wanted), QUERY_CHUNK):
                chunk = wanted[start : start + QUERY_CHUNK]
                marks = ", ".join("?" * len(chunk))
                blobs.update(self.db.execute(f"SELECT path, shapes FROM runs WHERE path IN ({marks})", chunk))
        except sqlite3.DatabaseError as error:
            self._lost(error)
            return dict.fromkeys(wanted)
        by_id = self._shapes_by_id()
        return {path: _decoded_shapes(blobs[path], by_id) if path in blobs else None for path in wanted}

    def _shapes_by_id(self) -> dict[int, Shape]:
        try:
            rows = self.db.execute("SELECT id, key FROM shapes").fetchall()
        except sqlite3.DatabaseError as error:
            self._lost(error)
            return {}
        decoded = {}
        for shape_id, key in rows:
            shape = _shape_from_key(key)
            if shape is not None:
                decoded[shape_id] = shape
        return decoded

    # -- writing ----------------------------------------------------------------------------------
    def save(self, read: Sequence[tuple[str, Stamp, int, Summary]]) -> None:
        """Store what was read: (path, the stamp taken before reading, when it was read, the summary)."""
        if not read:
            return
        try:
            self.db.execute("BEGIN IMMEDIATE")
            for path, stamp, read_ns, summary in read:
                if not all(value in INT64 for value in (stamp.size, stamp.mtime_ns, stamp.ctime_ns, stamp.inode)):
                    # Dated past 2262 (or before 1678): never "settled" (see Stored.fresh_for), so there is
                    # nothing worth keeping, and SQLite could not hold the number.
                    continue
                ids = array("I", sorted(self._shape_id(shape) for shape in summary.shapes))
                self.db.execute(
                    "INSERT OR REPLACE INTO runs VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        path,
                        stamp.size,
                        stamp.mtime_ns,
                        stamp.ctime_ns,
                        stamp.inode,
                        read_ns,
                        summary.row.model_dump_json(),
                        ids.tobytes(),
                    ),
                )
            self.db.execute("COMMIT")
        except sqlite3.DatabaseError as error:
            self._rollback()
            self._lost(error)

    def forget(self, paths: Iterable[str]) -> None:
        """Drop the entries of files that are gone."""
        gone = [(path,) for path in paths]
        if not gone:
            return
        try:
            self.db.executemany("DELETE FROM runs WHERE path = ?", gone)
        except sqlite3.DatabaseError as error:
            self._lost(error)

    def _shape_id(self, shape: Shape) -> int:
        if self._shape_ids is None:
            self._shape_ids = {shape: shape_id for shape_id, shape in self._shapes_by_id().items()}
        if shape not in self._shape_ids:
            key = json.dumps(shape, ensure_ascii=False)
            cursor = self.db.execute("INSERT OR IGNORE INTO shapes (key) VALUES (?)", (key,))
            shape_id = cursor.lastrowid if cursor.rowcount else None
            if shape_id is None:  # stored before under a key that did not decode: use its row
                shape_id = self.db.execute("SELECT id FROM shapes WHERE key = ?", (key,)).fetchone()[0]
            self._shape_ids[shape] = int(shape_id)
        return self._shape_ids[shape]

    def _rollback(self) -> None:
        try:
            self.db.execute("ROLLBACK")
        except sqlite3.Error:
            pass  # nothing was begun, or the connection is gone: either way nothing was written
        self._shape_ids = None

    def _lost(self, error: sqlite3.DatabaseError) -> None:
        """The file failed mid-listing. A damaged one is replaced by an empty one at once (it is a cache);
        a busy or read-only one is left alone. The listing goes on from the trace files either way."""
        if self.path is not None and _damaged(error):
            self.db.close()
            self._shape_ids = None
            try:
                self.db = Catalogue._rebuilt(self.path, str(error)).db
                self.note = f"catalogue {self.path} was damaged ({error}); rebuilt it"
                return
            except (OSError, sqlite3.Error):
                self.db = Catalogue.in_memory().db
        if self.note is None:
            what = "is busy (another loopscope is writing it)" if _transient(error) else f"failed ({error})"
            self.note = f"catalogue {self.path or '(memory)'} {what}; what was read now is not kept"


def _connection(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(path, isolation_level=None, timeout=BUSY_WAIT)


def _made_by_loopscope(connection: sqlite3.Connection) -> bool:
    """Whether loopscope created this database: its application_id, or (made before the id was written)
    a meta table whose format names a loopscope catalogue. Reading sqlite_master first is what tells
    a file that is not a database ("file is not a database") from one that is."""
    connection.execute("SELECT count(*) FROM sqlite_master").fetchone()
    if connection.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID:
        return True
    try:
        found = connection.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
    except sqlite3.OperationalError as error:
        if _transient(error):
            raise
        return False  # no meta table, or one of another shape
    return found is not None and isinstance(found[0], str) and found[0].startswith(FORMAT.rpartition("/")[0] + "/")


def _write_meta(connection: sqlite3.Connection) -> None:
    connection.executemany("INSERT INTO meta VALUES (?, ?)", [("format", FORMAT), ("loopscope", __version__)])


def _version(connection: sqlite3.Connection) -> str | None:
    found = connection.execute("SELECT value FROM meta WHERE key = 'loopscope'").fetchone()
    return found[0] if found else None


def _transient(error: sqlite3.Error) -> bool:
    return any(word in str(error) for word in ("locked", "busy"))


def _damaged(error: sqlite3.Error) -> bool:
    """The file's content is wrong (rebuild it), as opposed to busy, read-only or out of space (leave it)."""
    said = str(error)
    return not _transient(error) and not any(
        word in said for word in ("readonly", "read-only", "unable to open", "disk I/O", "full", "permission")
    )


def _refusal(path: Path, owned: bool) -> str | None:
    """Why the file at `path` must not be opened as the catalogue, or None."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as error:
        return f"catalogue {path}: {error.strerror or error}"
    if stat.S_ISLNK(info.st_mode) or not stat.S_ISREG(info.st_mode):
        return f"catalogue {path} is not a regular file (a link, a folder or a device)"
    if info.st_size and not owned:
        with open(path, "rb") as handle:
            if handle.read(len(SQLITE_MAGIC)) != SQLITE_MAGIC:
                return f"{path} is not a catalogue (not SQLite); not touching it"
    return None


def _decoded_shapes(blob: object, by_id: dict[int, Shape]) -> frozenset[Shape] | None:
    if not isinstance(blob, bytes) or len(blob) % 4:
        return None
    ids = array("I")
    ids.frombytes(blob)
    if not all(shape_id in by_id for shape_id in ids):
        return None
    return frozenset(by_id[shape_id] for shape_id in ids)


def _shape_from_key(key: object) -> Shape | None:
    """A stored shape, checked field by field (the catalogue is a file: read it as untrusted)."""
    try:
        kind, tool, iteration, function, file, line, frames, state = json.loads(key)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None
    texts = (kind, function, file, state)
    if not (all(isinstance(t, str) for t in texts) and (tool is None or isinstance(tool, str))):
        return None
    if not (isinstance(iteration, int) and isinstance(line, int) and isinstance(frames, list)):
        return None
    if not all(isinstance(frame, str) for frame in frames):
        return None
    return (kind, tool, iteration, function, file, line, tuple(frames), state)
