"""mmdkit's exceptions: every error of the C++ library arrives as one of these.

Each carries where the problem is: ``code`` (stable snake_case name, e.g. ``"truncated"``),
``message`` (why), ``file`` (path, when known), ``section`` (e.g. ``"bone keyframes"``, or a
JSON path such as ``"bone_keys[12].position[1]"``), ``record`` (0-based index in the section,
for VPD the 1-based line) and ``offset`` (byte offset in the input). Fields that do not apply
are None. ``str(e)`` is the one-line form the command-line tool prints.
"""
from __future__ import annotations

from typing import Optional

__all__ = ["Error", "FileError", "FormatError", "JsonError", "EncodingError", "ArgumentError",
           "PendingError"]


class Error(Exception):
    """Base class of mmdkit's errors (see the module docstring for the fields)."""

    def __init__(self, message: str, code: str = "invalid_value", file: Optional[str] = None,
                 section: Optional[str] = None, record: Optional[int] = None,
                 offset: Optional[int] = None, text: Optional[str] = None):
        super().__init__(message)
        self.message = message
        self.code = code
        self.file = file
        self.section = section
        self.record = record
        self.offset = offset
        self._text = text

    def __str__(self) -> str:
        parts = []
        if self.file:
            parts.append(f"{self.file}: ")
        where = []
        if self.section:
            where.append(f"section '{self.section}'")
        if self.record is not None:
            where.append(f"record {self.record}")
        if self.offset is not None:
            where.append(f"byte {self.offset}")
        if where:
            parts.append(", ".join(where) + ": ")
        parts.append(f"{self.code}: {self.message}")
        return "".join(parts)

    def __reduce__(self):  # picklable (Dask sends errors between processes)
        return (_rebuild, (type(self), self.message, self.code, self.file, self.section,
                           self.record, self.offset))


def _rebuild(cls, message, code, file, section, record, offset):
    return cls(message, code, file, section, record, offset)


class FileError(Error):
    """The file system refused (missing file, permission, existing output without force)."""


class FormatError(Error):
    """Bytes that are not a valid file: bad signature, truncated, counts too large, bad values,
    unsupported versions, trailing data in strict mode, limits."""


class JsonError(Error):
    """JSON text that is not well-formed (offset) or does not follow the schema (section = path)."""


class EncodingError(Error):
    """Text that cannot be converted between encodings."""


class ArgumentError(Error, ValueError):
    """An impossible request from the caller (unknown bone, bad frame list, bad option)."""


class PendingError(Error, NotImplementedError):
    """A feature that this version of mmdkit does not have yet (the message says which)."""


_CLASSES = {
    "io_error": FileError,
    "empty_input": FormatError,
    "bad_signature": FormatError,
    "truncated": FormatError,
    "count_too_large": FormatError,
    "invalid_value": FormatError,
    "unsupported": FormatError,
    "trailing_data": FormatError,
    "limit_exceeded": FormatError,
    "json_syntax": JsonError,
    "json_schema": JsonError,
    "encoding_error": EncodingError,
    "invalid_argument": ArgumentError,
}


def _from_native(d: dict) -> Error:
    """The exception for an error dict of the C++ layer (used by the bindings)."""
    cls = _CLASSES.get(d["code"], Error)
    return cls(d["message"], d["code"], d.get("file"), d.get("section"), d.get("record"),
               d.get("offset"), d.get("text"))


def __dir__() -> "list[str]":
    """The module's API (``__all__``): what ``dir()`` and tab completion show, not its imports."""
    return sorted(__all__)
