"""Statements compiled once per dialect: their SQL, their parameters' bind processors and
their result columns' processors, as SQLAlchemy's compiler and the column types give them."""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy.engine import Dialect
from sqlalchemy.sql import Select
from sqlalchemy.sql.dml import Insert, Update


@dataclass(frozen=True, slots=True)
class Compiled:
    sql: str
    processors: tuple[tuple[str, Callable[[Any], Any] | None], ...]

    def parameters(self, values: Mapping[str, Any]) -> tuple[Any, ...]:
        return tuple(
            values[key] if process is None else process(values[key])
            for key, process in self.processors
        )


class PreparedInsert:
    """An INSERT of a fixed set of columns, compiled once per dialect: its SQL with
    positional parameters and, per parameter, the column type's bind processor."""

    def __init__(self, statement: Insert, columns: tuple[str, ...]) -> None:
        # inline(): no RETURNING of the new id, no defaults fetched before; every value given.
        self.statement = statement.inline()
        self.columns = columns
        self._by_dialect: dict[str, Compiled] = {}

    def compiled(self, dialect: Dialect) -> Compiled:
        key = f"{dialect.name}+{dialect.driver}"
        found = self._by_dialect.get(key)
        if found is None:
            compiled = self.statement.compile(dialect=dialect, column_keys=list(self.columns))
            order = compiled.positiontup
            if order is None or sorted(order) != sorted(self.columns):
                raise TypeError(f"not one positional parameter per column: {order}")
            processors = tuple(
                (name, compiled.binds[name].type.dialect_impl(dialect).bind_processor(dialect))
                for name in order
            )
            found = self._by_dialect[key] = Compiled(str(compiled), processors)
        return found


def binds(compiled: Any, dialect: Dialect) -> tuple[tuple[str, Callable[[Any], Any] | None], ...]:
    """Each positional parameter's name and its type's bind processor, in the SQL's order."""
    return tuple(
        (name, compiled.binds[name].type.dialect_impl(dialect).bind_processor(dialect))
        for name in compiled.positiontup or []
    )


class PreparedUpdate:
    """An UPDATE with named parameters, compiled once per dialect: its SQL and, per
    parameter, the column type's bind processor (JSON as the ORM writes it)."""

    def __init__(self, statement: Update) -> None:
        self.statement = statement
        self._by_dialect: dict[str, Compiled] = {}

    def compiled(self, dialect: Dialect) -> Compiled:
        key = f"{dialect.name}+{dialect.driver}"
        found = self._by_dialect.get(key)
        if found is None:
            compiled = self.statement.compile(dialect=dialect)
            found = self._by_dialect[key] = Compiled(str(compiled), binds(compiled, dialect))
        return found


class PreparedSelect:
    """A SELECT with named parameters, compiled once per dialect: its SQL, the parameters'
    order and bind processors, and each result column's key and result processor (JSON
    parsed, timestamps read as the ORM reads them). Rows come back as named tuples, read by
    attribute like the ORM's objects (read-only: nothing tracks them)."""

    def __init__(self, statement: Select[Any] | Update) -> None:
        self.statement = statement  # or an UPDATE … RETURNING (update_returning)
        self._by_dialect: dict[str, tuple[Compiled, tuple[Any, ...], Any]] = {}

    def compiled(self, dialect: Dialect) -> tuple[Compiled, tuple[Any, ...], Any]:
        key = f"{dialect.name}+{dialect.driver}"
        found = self._by_dialect.get(key)
        if found is None:
            compiled = self.statement.compile(dialect=dialect)
            parameters = binds(compiled, dialect)
            columns = list(self.statement.exported_columns)
            results = tuple(
                column.type.dialect_impl(dialect).result_processor(dialect, None)
                for column in columns
            )
            row_type = namedtuple("Row", [column.key for column in columns])  # type: ignore[misc]
            found = self._by_dialect[key] = (Compiled(str(compiled), parameters), results, row_type)
        return found


def row_of(row_type: Any, results: tuple[Any, ...], raw: Any) -> Any:
    return row_type(
        *(
            value if process is None else process(value)
            for value, process in zip(raw, results, strict=True)
        )
    )
