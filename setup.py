"""The folders core/, app/ and resources/ install as one import package, `simsift`
(simsift.core, simsift.app, simsift.resources), so a user's environment gains no top-level
`core` or `app` that another distribution could collide with. Everything else is in
pyproject.toml; only this mapping and the C helpers need code."""

import sys

from setuptools import Extension, find_namespace_packages, setup

FOLDERS = ("core", "app", "resources")

# The PDF reader's inner loops in C (pdfium.py and pdf_layout.py run their Python twins
# without it). Optional: a machine without a C compiler or Python's headers still installs
# SimSift. No fused multiply-add: the layout's distances must round as Python's do.
PDF_LOOPS = Extension(
    "simsift.core.read.extract.pdf_loops",
    sources=["core/read/extract/pdf_loops.c"],
    extra_compile_args=[] if sys.platform == "win32" else ["-ffp-contract=off"],
    optional=True,
)
# The tokenizer's loop (tokens.py runs its regular expressions without it).
TOKEN_LOOPS = Extension(
    "simsift.core.text.token_loops", sources=["core/text/token_loops.c"], optional=True
)

setup(
    packages=[
        f"simsift.{name}"
        for name in find_namespace_packages(include=[f"{f}*" for f in FOLDERS])
        if "__pycache__" not in name
    ],
    package_dir={f"simsift.{f}": f for f in FOLDERS},
    ext_modules=[PDF_LOOPS, TOKEN_LOOPS],
)
