"""The stopword lists' token hashes are shipped with them, so a scan does not load jieba's
dictionary (90 MB) to tokenize the Chinese list."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
from simsift.core.text.features import stopword_hashes, tokenized_stopword_hashes


def test_the_shipped_hashes_are_those_of_the_lists_as_tokenized():
    # after editing a list or the tokenizer: python -m simsift.core.text.features
    assert np.array_equal(stopword_hashes(), tokenized_stopword_hashes())


def test_stopword_hashes_do_not_load_jieba():
    code = (
        "import sys; from simsift.core.text.features import stopword_hashes; "
        "assert len(stopword_hashes()) > 200; print('jieba' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"
