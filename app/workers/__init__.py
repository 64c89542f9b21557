"""Background jobs run off the GUI thread."""
