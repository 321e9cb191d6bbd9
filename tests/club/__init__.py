"""The club tables recomputed from a simulated season's logs, by subject."""
