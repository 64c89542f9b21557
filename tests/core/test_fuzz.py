"""Hostile folders, generated: the scan always finishes and accounts for every file.

Bounded for CI (200 folders, about 5 s; SIMSIFT_FUZZ_EXAMPLES=N for more): mutated copies
of the real samples (truncated, bytes flipped, spliced, renamed to another type) and random
bytes under document names. Property: the
scan finishes, every file is read, an error or a listed skip, and no pair involves a file
that was not read.
"""

from __future__ import annotations

import os
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from simsift.core.pipeline.options import ScanOptions
from simsift.core.pipeline.scan import scan

SAMPLES = sorted((Path(__file__).resolve().parents[1] / "data" / "extract").iterdir())
SAMPLES = [p for p in SAMPLES if p.is_file() and p.stat().st_size < 200_000]
SUFFIXES = [".txt", ".html", ".htm", ".docx", ".doc", ".pdf", ".md", ".xml", ""]


@st.composite
def hostile_file(draw) -> tuple[str, bytes]:
    source = draw(st.sampled_from(SAMPLES))
    data = source.read_bytes()
    how = draw(st.sampled_from(["truncate", "flip", "splice", "random", "as is"]))
    if how == "truncate" and data:
        data = data[: draw(st.integers(0, len(data)))]
    elif how == "flip" and data:
        data = bytearray(data)
        for _ in range(draw(st.integers(1, 20))):
            data[draw(st.integers(0, len(data) - 1))] = draw(st.integers(0, 255))
        data = bytes(data)
    elif how == "splice":
        other = draw(st.sampled_from(SAMPLES)).read_bytes()
        data = data[: len(data) // 2] + other[len(other) // 2 :]
    elif how == "random":
        data = draw(st.binary(max_size=4096))
    suffix = draw(st.sampled_from([source.suffix, *SUFFIXES]))
    return suffix, data


@settings(
    max_examples=int(os.environ.get("SIMSIFT_FUZZ_EXAMPLES", "200")),
    deadline=None,
    # the same folders on every CI run (SIMSIFT_FUZZ_RANDOM=1 explores new ones)
    derandomize=not os.environ.get("SIMSIFT_FUZZ_RANDOM"),
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(st.lists(hostile_file(), min_size=1, max_size=6))
def test_a_hostile_folder_is_scanned_to_the_end(tmp_path_factory, files):
    folder = tmp_path_factory.mktemp("hostile")
    for i, (suffix, data) in enumerate(files):
        (folder / f"f{i}{suffix}").write_bytes(data)
    result = scan(ScanOptions(roots=(str(folder),), workers=0, k_max=8))
    found = {str(p) for p in folder.iterdir()}
    read = {d.path for d in result.documents}
    accounted = read | {r.path for r in (*result.garbled, *result.errors, *result.skipped)}
    assert accounted == found
    assert all(r.message for r in (*result.errors, *result.skipped))
    n = len(result.documents)
    assert all(0 <= x < n for x in (*result.pairs.left.tolist(), *result.pairs.right.tolist()))
