"""The scan and the check: options, stages, results, cluster runs."""
