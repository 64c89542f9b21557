"""What every reader needs, loaded once in the readers' fork server (`core.workers`).

Readers are forked from that server, so each starts with the extraction code imported
and jieba's dictionary loaded instead of paying for both in every scan (0.2 s per reader).
"""

import contextlib

import core.extract  # imported for the readers forked after it
import core.reader  # noqa: F401
from core.segmenter import jieba_module

# a failure here must not stop the fork server: a reader loads jieba itself when it needs it
with contextlib.suppress(Exception):
    jieba_module()
