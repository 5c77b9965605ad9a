"""rulesets/opencore."""
