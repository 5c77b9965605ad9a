"""rulesets/ore."""
