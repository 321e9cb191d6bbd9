"""The base of the store's tables: their ``metadata`` (with its naming convention), the table class they derive
from, and the column helpers they share."""

import sqlalchemy as sa
from sqlalchemy.orm import registry
from sqlmodel import SQLModel

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}
metadata = sa.MetaData(naming_convention=NAMING_CONVENTION)


class StoreTable(SQLModel, registry=registry(metadata=metadata)):
    """Base of the store's tables: they live in the store's own ``metadata``, apart from any other SQLModel."""


def fk(target: str, *, nullable: bool = False, ondelete: str | None = "CASCADE") -> sa.Column[int]:
    return sa.Column(sa.Integer, sa.ForeignKey(target, ondelete=ondelete), nullable=nullable)


def count_column() -> sa.Column[int]:
    """A count that starts at 0."""
    return sa.Column(sa.Integer, nullable=False, server_default="0")
