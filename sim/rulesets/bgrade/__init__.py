"""rulesets/bgrade."""
