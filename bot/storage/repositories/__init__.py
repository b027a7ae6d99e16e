"""Queries and writes by aggregate; services call these inside their unit of work."""
