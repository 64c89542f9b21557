"""Loading jieba's dictionary while another thread wants to run (the window, during a scan).

    python -m bench.jieba_load_bench

Each loader runs in a fresh process, on a second thread, while the main thread sleeps 2 ms
at a time and records how long it actually waited (time the loader held the GIL).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PROBE = """
import sys, threading, time
def load():
    if {ours}:
        from simsift.core.text.word_segmenter import jieba_module
        jieba_module()
    else:
        import jieba
        jieba.setLogLevel(30)
        jieba.initialize()
done = threading.Event()
def run():
    started = time.perf_counter(); load(); took.append(time.perf_counter() - started); done.set()
took = []
threading.Thread(target=run).start()
worst, last = 0.0, time.perf_counter()
while not done.is_set():
    time.sleep(0.002)
    now = time.perf_counter(); worst = max(worst, now - last); last = now
print(f"{{took[0]:.2f}} {{worst:.3f}}")
"""


def measure(ours: bool) -> tuple[float, float]:
    code = PROBE.format(root=str(ROOT), ours=ours)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    took, worst = out.stdout.split()
    return float(took), float(worst)


def main() -> None:
    measure(True)  # make sure both caches exist: the first load ever builds them
    measure(False)
    for name, ours in (
        ("jieba.initialize()", False),
        ("simsift.core.text.word_segmenter (parts)", True),
    ):
        runs = [measure(ours) for _ in range(3)]
        took = min(t for t, _ in runs)
        worst = max(w for _, w in runs)
        print(f"{name:<24} load {took:.2f} s, other thread held up at most {1000 * worst:.0f} ms")


if __name__ == "__main__":
    main()
