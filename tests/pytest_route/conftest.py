"""The scratch project under project/ is a wrapper's own test suite, run in a subprocess by
test_wrapper_project.py: thinkwire's suite does not collect it."""

collect_ignore = ["project"]
