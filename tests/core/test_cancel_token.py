"""`CancelToken.checked`: pieces of work made by a generator stop at the next piece."""

from __future__ import annotations

import pytest
from simsift.core.progress import Cancelled, CancelToken


def test_checked_pieces_stop_at_the_piece_after_a_cancel():
    token = CancelToken()
    made = []

    def pieces():
        for i in range(10):
            made.append(i)
            yield i

    seen = []
    with pytest.raises(Cancelled):
        for piece in token.checked(pieces()):
            seen.append(piece)
            if piece == 2:
                token.cancel()
    assert seen == [0, 1, 2]
    assert made == [0, 1, 2, 3]  # the piece in hand when the check came is the last made


def test_checked_pieces_all_come_without_a_cancel():
    assert list(CancelToken().checked(iter("abc"))) == ["a", "b", "c"]
