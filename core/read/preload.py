"""What every reader needs, loaded once in the readers' fork server (`core.read.workers`).

Readers are forked from that server, so each starts with the extraction code imported
and jieba's dictionary loaded instead of paying for both in every scan (0.2 s per reader).
"""

import contextlib

import simsift.core.read.extract  # imported for the readers forked after it
import simsift.core.read.reader  # noqa: F401
from simsift.core.text.word_segmenter import jieba_module

# a failure here must not stop the fork server: a reader loads jieba itself when it needs it
with contextlib.suppress(Exception):
    jieba_module()
