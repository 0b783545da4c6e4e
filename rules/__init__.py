"""The rule engine: pure Python, no Django (a ruff rule keeps it that way).

Rulesets are frozen data; every function takes keyword arguments and returns
a result object. Nothing here keeps state between calls.
"""
