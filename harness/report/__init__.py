"""thinkwire report."""
