"""Plain baselines over the same extracted text: the `simhash` package and MinHash.

- `simhash` (1e0ng/simhash) default `Simhash(text)`: lower-cased word characters with
  spaces removed, overlapping 4-character shingles counted, md5-based 64-bit SimHash.
- datasketch `MinHash` (128 permutations) over the same 4-character shingles; the
  estimated Jaccard similarity of every pair is computed exactly from the signatures
  (what MinHash-LSH approximates, without LSH's extra misses), and pairs are reported at
  a Jaccard threshold.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def document_text(title: str, paragraphs: Sequence[str]) -> str:
    """The text a baseline sees: title and paragraphs as extracted by SimSift."""
    return "\n".join([title, *paragraphs])


def simhash_fingerprints(texts: Sequence[str]) -> np.ndarray:
    """64-bit fingerprints from the `simhash` package's defaults."""
    from simhash import Simhash

    return np.array([Simhash(t).value for t in texts], dtype=np.uint64)


def char_shingles(text: str) -> set[str]:
    """The `simhash` package's features: 4-character shingles of the word characters."""
    from simhash import Simhash

    return set(Simhash(0)._tokenize(text))


def minhashes(texts: Sequence[str], num_perm: int = 128, seed: int = 1) -> list:
    """datasketch MinHash of each text's shingles."""
    from datasketch import MinHash

    out = []
    for text in texts:
        m = MinHash(num_perm=num_perm, seed=seed)
        m.update_batch([s.encode("utf-8") for s in sorted(char_shingles(text))])
        out.append(m)
    return out


def signatures(hashes: Sequence) -> np.ndarray:
    """The MinHash signatures as one array, a row per document."""
    return np.array([m.hashvalues for m in hashes], dtype=np.uint64)


def minhash_pairs(signatures: np.ndarray, min_jaccard: float, chunk: int = 128):
    """(left, right, estimated Jaccard) of all pairs with estimated Jaccard >= min_jaccard."""
    lefts, rights, sims = [], [], []
    for start in range(0, len(signatures), chunk):
        block = signatures[start : start + chunk]
        jac = (block[:, None, :] == signatures[None, :, :]).mean(axis=2)
        rows, cols = np.nonzero(jac >= min_jaccard)
        keep = cols > rows + start
        lefts.append(rows[keep] + start)
        rights.append(cols[keep])
        sims.append(jac[rows[keep], cols[keep]])
    return np.concatenate(lefts), np.concatenate(rights), np.concatenate(sims)


def lsh_candidates(hashes: Sequence, threshold: float) -> set[tuple[int, int]]:
    """Pairs that datasketch MinHashLSH returns at `threshold` (to check the exact sweep)."""
    from datasketch import MinHashLSH

    lsh = MinHashLSH(threshold=threshold, num_perm=len(hashes[0].hashvalues))
    for i, m in enumerate(hashes):
        lsh.insert(i, m)
    found = set()
    for i, m in enumerate(hashes):
        for j in lsh.query(m):
            if j != i:
                found.add((min(i, j), max(i, j)))
    return found
