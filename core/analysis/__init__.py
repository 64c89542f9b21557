"""What the pairs mean: clusters, the similarity index per document, the overview."""
