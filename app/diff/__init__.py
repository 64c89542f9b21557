"""The side-by-side view of two documents."""
