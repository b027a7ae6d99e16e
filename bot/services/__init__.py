"""Use cases: one function each, one unit of work each, no discord imports.

The cogs, the console and the tests all call these with plain ids and values.
"""
