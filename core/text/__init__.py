"""Text: normalisation, word segmentation, tokens, weighted features, SimHash."""
