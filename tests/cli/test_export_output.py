"""`export -o` under attack: a full disk (injected and real), Ctrl-C mid-write; one line, no *.tmp left behind."""

from __future__ import annotations

import errno
import os

import pytest

from tests.helpers.cli_run import loopscope
from tests.helpers.paths import ROSE
from tests.helpers.small_fs import fill, small_tmpfs

ENOSPC = OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


class FailingFile:
    """A text file whose `method` raises `error`, as one on a full disk (or under Ctrl-C) does."""

    def __init__(self, real, method: str, error: BaseException) -> None:
        self.real, self.method, self.error = real, method, error

    def __getattr__(self, name):
        if name == self.method:
            raise self.error
        return getattr(self.real, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.real.close()


def export(capsys, *argv) -> tuple[int, str, str]:
    return loopscope(capsys, "export", *argv)


def left_behind(directory) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name.endswith(".tmp"))


@pytest.mark.parametrize("fails_at", ["write", "flush"])
@pytest.mark.parametrize("fmt", [["--format", "otlp-json"], ["--mermaid"]])
def test_a_full_disk_is_one_line_and_leaves_no_temp_file(tmp_path, capsys, monkeypatch, fails_at, fmt):
    real_fdopen = os.fdopen
    monkeypatch.setattr(
        "tracer.cli.export.os.fdopen", lambda *a, **k: FailingFile(real_fdopen(*a, **k), fails_at, ENOSPC)
    )
    out = tmp_path / "run.json"
    code, stdout, err = export(capsys, *fmt, str(ROSE), "-o", str(out))
    assert code == 1 and stdout == ""
    assert err == f"loopscope: cannot write {out}: No space left on device; nothing was written\n"
    assert left_behind(tmp_path) == [] and not out.exists()


def test_a_full_disk_at_fsync_keeps_the_old_output(tmp_path, capsys, monkeypatch):
    out = tmp_path / "run.json"
    out.write_text("the previous export")

    def fsync(fd):
        raise ENOSPC

    monkeypatch.setattr("tracer.cli.export.os.fsync", fsync)
    code, _, err = export(capsys, "--format", "otlp-json", str(ROSE), "-o", str(out))
    assert code == 1
    assert err == f"loopscope: cannot write {out}: No space left on device; {out} was left as it was\n"
    assert out.read_text() == "the previous export" and left_behind(tmp_path) == []


def test_ctrl_c_mid_write_leaves_no_temp_file_and_the_old_output(tmp_path, capsys, monkeypatch):
    out = tmp_path / "run.json"
    out.write_text("the previous export")
    real_fdopen = os.fdopen
    monkeypatch.setattr(
        "tracer.cli.export.os.fdopen", lambda *a, **k: FailingFile(real_fdopen(*a, **k), "write", KeyboardInterrupt())
    )
    code, _, err = export(capsys, "--format", "otlp-json", str(ROSE), "-o", str(out))
    assert code == 130 and err == f"loopscope: interrupted; {out} was left as it was\n"
    assert out.read_text() == "the previous export" and left_behind(tmp_path) == []


def test_an_output_that_is_a_directory_is_one_line(tmp_path, capsys):
    code, _, err = export(capsys, "--mermaid", str(ROSE), "-o", str(tmp_path))
    assert code == 1 and err.count("\n") == 1
    assert err.startswith(f"loopscope: cannot write {tmp_path}: ") and left_behind(tmp_path) == []


def test_a_really_full_filesystem(tmp_path, capsys):
    with small_tmpfs(tmp_path / "small", size="256k") as small:
        if small is None:
            pytest.skip("cannot mount a tmpfs here; the injected-ENOSPC tests above cover export")
        fill(small, leave=4096)  # the rose run's OTLP JSON is ~100 KB
        out = small / "run.json"
        code, _, err = export(capsys, "--format", "otlp-json", str(ROSE), "-o", str(out))
        assert code == 1
        assert err == f"loopscope: cannot write {out}: No space left on device; nothing was written\n"
        assert sorted(p.name for p in small.iterdir()) == ["filler"]
