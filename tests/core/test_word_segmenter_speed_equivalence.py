"""cut_chinese with rjieba's word graph and route: the words of jieba's own
`lcut(run, HMM=True)` on every run of Chinese characters of the repository's Chinese texts
and of the Chinese text this machine holds (man pages, programs' messages, the editor
benchmark's archive, when present), on runs made to be hard (dictionary words glued
together, near-ties, unknown characters), by both paths (rjieba, and Python without it)."""

from __future__ import annotations

import functools
import gzip
import random
import re
import subprocess
import sys
from pathlib import Path

import jieba
import pytest
from simsift.core.text import word_segmenter as segmenter

_CHINESE = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")  # tokens' CJK runs
_ZH_TEXT = Path(__file__).resolve().parents[1] / "data" / "zh_text"
_MACHINE_TEXT = (
    Path("/usr/share/man/zh_CN"),
    Path("/usr/share/man/zh_TW"),
    Path("/usr/share/locale/zh_CN/LC_MESSAGES"),
    Path("/usr/share/locale/zh_TW/LC_MESSAGES"),
    Path("/tmp/editor/archive/zh"),
)


def _text(path: Path) -> str:
    data = path.read_bytes()
    if path.suffix == ".gz":
        data = gzip.decompress(data)
    return data.decode("utf-8", "replace")


@functools.cache
def _real_runs() -> list[str]:
    """Distinct runs of Chinese characters of the repository's texts and this machine's."""
    paths = sorted(_ZH_TEXT.glob("*.txt"))
    for folder in _MACHINE_TEXT:
        if folder.is_dir():
            paths += sorted(p for p in folder.rglob("*") if p.is_file())
    runs: dict[str, None] = {}
    for path in paths:
        try:
            runs.update(dict.fromkeys(_CHINESE.findall(_text(path))))
        except (OSError, EOFError, gzip.BadGzipFile):
            continue
    return list(runs)


def _hard_runs(words: list[str], characters: str) -> list[str]:
    """Runs where the route and the HMM have close calls: words glued to words and to
    single characters, a word's characters repeated, characters jieba's HMM has never
    seen, characters its word graph does not take (U+3400-U+4DBF, U+9FD6 on, U+F900 on)."""
    rng = random.Random(2929)
    unseen = [chr(i) for i in range(0x9F00, 0x9FD6)]
    other = "\u3400\u4db5\u9fd6\u9fea\u9fff\uf900\ufa2d"
    runs = []
    for _ in range(2000):
        glued = [rng.choice(words) for _ in range(rng.randint(2, 8))]
        runs.append("".join(glued))
        runs.append("".join(w[: rng.randint(1, len(w))] for w in glued))
        runs.append("".join(rng.choice(characters) for _ in range(rng.randint(2, 40))))
        word = rng.choice(words)
        runs.append(word * rng.randint(2, 4) + word[0] * rng.randint(1, 3))
        runs.append("".join(rng.choice(unseen + glued) for _ in range(rng.randint(2, 12))))
        runs.append(rng.choice(other).join(glued))
    return runs


@pytest.fixture(scope="module")
def dictionary_words() -> list[str]:
    return sorted(w for w, n in segmenter.jieba_tokenizer().FREQ.items() if n and len(w) > 1)


def _check(runs: list[str]) -> None:
    for run in runs:
        expected = jieba.lcut(run, HMM=True)
        assert list(segmenter._cut(run)) == expected, run
        assert list(segmenter.cut_chinese(run)) == expected, run


def test_rjieba_is_used_without_its_own_dictionary_or_jiebas():
    """The fast path is on, and a process that loads the segmenter holds neither rjieba's
    bundled dictionary (its package is not imported) nor jieba's prefix dictionary."""
    code = (
        "import sys; from simsift.core.text import word_segmenter as s; j = s.jieba_module(); "
        "print(s._graph is not None, s.cut_chinese('我们在北京大学学习自然语言处理'), "
        "'rjieba' in sys.modules, j.dt.initialized)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert (
        out.split("\n")[0]
        == "True ('我们', '在', '北京大学', '学习', '自然语言', '处理') False False"
    )


def test_real_text_is_cut_as_jieba_cuts_it():
    runs = _real_runs()
    assert len(runs) > 1000
    _check(runs)


def test_hard_runs_are_cut_as_jieba_cuts_them(dictionary_words):
    characters = "".join(_CHINESE.findall("".join(map(_text, sorted(_ZH_TEXT.glob("*.txt"))))))
    _check(_hard_runs(dictionary_words, characters))


def test_without_rjieba_the_python_route_gives_the_same_words(dictionary_words, monkeypatch):
    characters = "".join(_CHINESE.findall("".join(map(_text, sorted(_ZH_TEXT.glob("*.txt"))))))
    runs = _real_runs()[:3000] + _hard_runs(dictionary_words, characters)[:3000]
    segmenter.jieba_module()  # loaded before: loading would set the segmenter again
    monkeypatch.setattr(segmenter, "_graph", None)
    for run in runs:
        assert list(segmenter._cut(run)) == jieba.lcut(run, HMM=True), run


def test_a_cache_damaged_midway_gives_a_whole_new_segmenter(tmp_path, monkeypatch):
    segmenter.jieba_module()  # this process's segmenter, from the real cache
    monkeypatch.setattr(segmenter.platformdirs, "user_cache_dir", lambda *a, **k: str(tmp_path))
    graph = segmenter._fill_word_graph(segmenter._new_word_graph(), jieba.Tokenizer())
    (cache,) = tmp_path.glob("jieba-*.dict")
    cache.write_bytes(cache.read_bytes()[: cache.stat().st_size * 2 // 3])  # parts lost
    damaged = segmenter._new_word_graph()
    assert not segmenter._fill_from_cache(cache, damaged)  # some words, not all
    rebuilt = segmenter._fill_word_graph(damaged, jieba.Tokenizer())
    assert rebuilt is not damaged
    for run in _real_runs()[:2000]:
        if segmenter._JIEBA_HAN.fullmatch(run):
            assert (
                rebuilt.cut(run, False) == graph.cut(run, False) == segmenter._graph.cut(run, False)
            )
    assert segmenter._fill_from_cache(cache, segmenter._new_word_graph())  # written again


def test_the_segmenter_gets_jiebas_words_and_total(tmp_path):
    """Words of nonzero frequency only (the others are prefixes), and jieba's total: its
    word list counts repeated words twice, so the difference is added as a word no run of
    Chinese characters holds."""

    class Recording:
        def __init__(self):
            self.words = []

        def add_word(self, word, frequency, tag):
            self.words.append((word, frequency, tag))

    path = tmp_path / "x.dict"
    segmenter.write_cache(path, {"北京": 5, "北": 0, "京": 2}, 9)
    graph = Recording()
    assert segmenter._fill_from_cache(path, graph)
    assert graph.words == [("北京", 5, None), ("京", 2, None), ("\x00", 2, None)]
    segmenter.write_cache(path, {"北京": 5, "北": 0, "京": 2}, 7)
    graph = Recording()
    assert segmenter._fill_from_cache(path, graph)
    assert graph.words == [("北京", 5, None), ("京", 2, None)]
