"""thinkwire recording."""
