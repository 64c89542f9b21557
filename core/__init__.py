"""SimSift engine: text extraction, features, SimHash, Hamming index, clusters.

Never imports Qt: everything here is usable from the CLI and from tests.
"""

__version__ = "0.1.0"
