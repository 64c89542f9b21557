"""Every example in simsift.core's docstrings runs and prints what it shows.

The modules are found by walking the package, so a new module's examples are run without
being listed here; a check against the `>>>` lines of each source file makes sure no
example is silently missed by the finder (a decorator hiding a docstring, say).
"""

from __future__ import annotations

import doctest
import importlib
import inspect
import pkgutil

import pytest
import simsift.core

MODULES = [
    "simsift.core",
    *sorted(m.name for m in pkgutil.walk_packages(simsift.core.__path__, "simsift.core.")),
]
FLAGS = doctest.ELLIPSIS


def examples_of(name: str) -> list[doctest.DocTest]:
    module = importlib.import_module(name)
    tests = doctest.DocTestFinder().find(module, name)
    return [t for t in tests if t.examples]


def source_example_lines(name: str) -> int:
    module = importlib.import_module(name)
    if not module.__file__.endswith(".py"):  # a compiled helper: no source, no examples
        return 0
    source = inspect.getsource(module)
    return sum(line.lstrip().startswith(">>>") for line in source.splitlines())


WITH_EXAMPLES = [name for name in MODULES if source_example_lines(name)]


@pytest.mark.parametrize("name", WITH_EXAMPLES)
def test_docstring_examples_run(name):
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    found = examples_of(name)
    for test in found:
        runner.run(test, out=lambda text: print(text, end=""))
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} failing example(s) in {name} (output above)"


@pytest.mark.parametrize("name", WITH_EXAMPLES)
def test_every_example_in_the_source_is_found(name):
    assert sum(len(t.examples) for t in examples_of(name)) == source_example_lines(name)


def test_the_walk_reaches_the_modules_with_examples():
    assert len(MODULES) > 40
    assert len(WITH_EXAMPLES) >= 5
