"""Qt item models of the results, with their roles."""
