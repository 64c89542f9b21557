"""What is kept on disk: the catalog, archives, the result cache, verdicts."""
