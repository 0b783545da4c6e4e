"""Developer tools run from the command line (make lint, pre-commit): not part of the site."""
