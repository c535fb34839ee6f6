"""Reports from one results model: console, JUnit XML, JSON (with a schema), Markdown, HTML."""
