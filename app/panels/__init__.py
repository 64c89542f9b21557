"""The window's panels and tabs."""
