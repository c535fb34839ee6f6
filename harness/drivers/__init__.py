"""thinkwire drivers."""
