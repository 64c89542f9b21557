"""SimSift desktop application (PySide6). Shows what `core` computes; never computes itself."""
