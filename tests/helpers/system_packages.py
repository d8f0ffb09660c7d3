"""The Debian packages a few tests need beyond Python and uv: each such test skips, naming the package, where it is missing."""

from __future__ import annotations

import functools
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.helpers.headless_chromium import chromium_path

DEJAVU_FOLDERS = (Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/dejavu"))


@functools.cache
def fonts_with_chinese() -> frozenset[str]:
    """The font families fontconfig knows that draw 中 (U+4E2D); empty without fontconfig or such a font."""
    if shutil.which("fc-list") is None:
        return frozenset()
    listed = subprocess.run(["fc-list", ":charset=4e2d", "family"], capture_output=True, text=True).stdout
    return frozenset(name.strip() for line in listed.splitlines() for name in line.split(",") if name.strip())


def dejavu_folder() -> Path | None:
    return next((folder for folder in DEJAVU_FOLDERS if folder.is_dir()), None)


# The reasons pytest prints with -rs: one line, the package, the command that installs it (.ci/run does).
needs_chromium = pytest.mark.skipif(chromium_path() is None, reason="needs chromium: apt-get install chromium")
needs_chinese_font = pytest.mark.skipif(
    not fonts_with_chinese(), reason="needs a font with Chinese: apt-get install fonts-noto-cjk"
)
needs_dejavu = pytest.mark.skipif(
    dejavu_folder() is None, reason="needs DejaVu fonts: apt-get install fonts-dejavu-core"
)
