"""rulesets/opend6."""
