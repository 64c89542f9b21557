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

    def no_building(_):
        raise AssertionError("the dictionary should come from the cache")

    monkeypatch.setattr(jieba.Tokenizer, "gen_pfdict", staticmethod(no_building))
    cached = jieba.Tokenizer()
    segmenter._load_dictionary(cached)
    assert (cached.FREQ, cached.total) == expected
    sentence = "我们在北京大学学习自然语言处理"
    assert cached.lcut(sentence) == built.lcut(sentence) == jieba.lcut(sentence)


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
