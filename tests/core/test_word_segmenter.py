"""jieba's dictionary, loaded from SimSift's part cache: same words, same segmentation."""

from __future__ import annotations

import jieba
import pytest
from simsift.core.text import word_segmenter as segmenter


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setattr(segmenter.platformdirs, "user_cache_dir", lambda *a, **k: str(tmp_path))
    return tmp_path


def test_first_load_builds_the_cache_and_the_second_reads_it(cache_dir, monkeypatch):
    built = jieba.Tokenizer()
    segmenter._load_dictionary(built)
    assert list(cache_dir.glob("jieba-*.dict"))
    expected = jieba.Tokenizer.gen_pfdict(jieba.Tokenizer().get_dict_file())
    assert (built.FREQ, built.total) == expected
    sentence = "我们在北京大学学习自然语言处理"
    reference = jieba.lcut(sentence)  # jieba's own loader, before building is forbidden

    def no_building(_):
        raise AssertionError("the dictionary should come from the cache")

    monkeypatch.setattr(jieba.Tokenizer, "gen_pfdict", staticmethod(no_building))
    cached = jieba.Tokenizer()
    segmenter._load_dictionary(cached)
    assert (cached.FREQ, cached.total) == expected
    assert cached.lcut(sentence) == built.lcut(sentence) == reference


def test_a_damaged_cache_is_rebuilt(cache_dir):
    path = cache_dir / "x.dict"
    segmenter.write_cache(path, {"北京": 5, "北": 0}, 5)
    assert segmenter.read_cache(path) == ({"北京": 5, "北": 0}, 5)
    path.write_bytes(path.read_bytes()[:-3])
    assert segmenter.read_cache(path) is None
    path.write_bytes(b"not a cache")
    assert segmenter.read_cache(path) is None
    assert segmenter.read_cache(cache_dir / "missing.dict") is None


def test_an_unwritable_cache_folder_only_costs_speed(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setattr(segmenter.platformdirs, "user_cache_dir", lambda *a, **k: str(blocker))
    tokenizer = jieba.Tokenizer()
    segmenter._load_dictionary(tokenizer)
    assert tokenizer.initialized and tokenizer.lcut("自然语言处理")


def test_running_out_of_memory_says_what_could_not_be_loaded(cache_dir, monkeypatch):
    path = cache_dir / "x.dict"
    segmenter.write_cache(path, {"北京": 5, "北": 0}, 5)
    calls = []

    def loads_until_memory_runs_out(data):
        calls.append(len(data))
        if len(calls) > 1:  # the header, then the first part
            raise MemoryError
        return real(data)

    real = segmenter.marshal.loads
    monkeypatch.setattr(segmenter.marshal, "loads", loads_until_memory_runs_out)
    with pytest.raises(MemoryError, match="out of memory while loading the Chinese word"):
        segmenter.read_cache(path)
    monkeypatch.setattr(segmenter.marshal, "loads", real)

    def no_memory(_):
        raise MemoryError

    monkeypatch.setattr(jieba.Tokenizer, "gen_pfdict", staticmethod(no_memory))
    tokenizer = jieba.Tokenizer()
    with pytest.raises(MemoryError, match="Chinese word dictionary"):
        segmenter._load_dictionary(tokenizer)
    assert not tokenizer.initialized


def _chinese_runs() -> list[str]:
    """Runs of Chinese characters of the seed texts, and random runs of their characters,
    of dictionary words and of characters jieba does not cut with its word graph."""
    import random
    import re
    from pathlib import Path

    folder = Path(__file__).resolve().parents[1] / "data" / "zh_text"
    text = "".join(p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.txt")))
    runs = re.findall("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+", text)
    rng = random.Random(29)
    characters = "".join(runs)
    words = sorted(w for w, n in segmenter.jieba_tokenizer().FREQ.items() if n and len(w) > 1)
    for _ in range(300):
        runs.append("".join(rng.choice(characters) for _ in range(rng.randint(1, 60))))
        runs.append("".join(rng.choice(words) for _ in range(rng.randint(1, 6))))
        runs.append("".join(rng.choice(characters + "\u3400\u4db5\u9fea\uf900") for _ in range(8)))
    return runs


def test_cut_chinese_gives_jiebas_words():
    jieba_module = segmenter.jieba_module()
    for run in _chinese_runs():
        expected = jieba_module.lcut(run, HMM=True)
        assert list(segmenter._cut(run)) == expected, run
        assert list(segmenter.cut_chinese(run)) == expected, run  # remembered or not
