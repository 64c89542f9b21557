"""Reading files: the walk, isolated reader processes, per-format extraction."""
