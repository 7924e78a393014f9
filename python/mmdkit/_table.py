"""Table: the named NumPy columns of one section of a file (bone keys, vertices, ...)."""
from __future__ import annotations

from typing import Dict, Iterator

import numpy as np


class Table:
    """Columns of one section, as attributes and items: ``motion.bone_keys.frames`` or
    ``motion.bone_keys["frames"]``. Every column has ``len(table)`` rows. Columns are views of
    the object's records unless documented as copies."""

    __slots__ = ("_name", "_rows", "_columns")

    def __init__(self, name: str, rows: int, columns: Dict[str, np.ndarray]):
        self._name = name
        self._rows = rows
        self._columns = dict(columns)

    def __getattr__(self, key: str) -> np.ndarray:
        try:
            return self._columns[key]
        except KeyError:
            raise AttributeError(f"{self._name} has no column {key!r} "
                                 f"(columns: {', '.join(self._columns)})") from None

    def __getitem__(self, key: str) -> np.ndarray:
        return self._columns[key]

    def __len__(self) -> int:
        return self._rows

    def __iter__(self) -> Iterator[str]:
        return iter(self._columns)

    def keys(self):
        return self._columns.keys()

    def as_dict(self) -> Dict[str, np.ndarray]:
        """The columns (the same arrays, not copies)."""
        return dict(self._columns)

    def __dir__(self):
        return list(self._columns) + ["keys", "as_dict"]

    def __repr__(self) -> str:
        cols = ", ".join(f"{k} {v.dtype}{list(v.shape)}" for k, v in self._columns.items())
        return f"<{self._name}: {self._rows} rows: {cols}>"
