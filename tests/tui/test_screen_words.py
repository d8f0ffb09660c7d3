"""The zh walk's word checker: a temporary folder's random name is never read as English, even folded."""

from __future__ import annotations

import tempfile

from tests.helpers.screen_text import foreign_words


def test_a_folded_temporary_folder_name_is_not_english_but_a_real_word_still_is():
    temp = tempfile.gettempdir()
    rows = [
        f"│   _call     :175 │   {temp}/loopscope-own-",
        "│   _call                  :175 │                           agent-jdspihys/",
        "│   iter_events            :157 │                           own-agent-abcdefgh/my_shop.py",
        "│   _call                  :175 │                           agent-jdspihys/ extra words",
    ]
    found = [word for word, _row in foreign_words(rows, frozenset({"_call", "iter_events", "my_shop", "py"}))]
    assert found == ["extra", "words"]  # the random tails are gone, an English word beside one is not
