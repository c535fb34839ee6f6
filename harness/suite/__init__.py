"""thinkwire suite."""
