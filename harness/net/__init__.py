"""thinkwire net."""
