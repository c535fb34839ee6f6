"""thinkwire reference."""
