"""Text: the one name type of mmdkit's Python objects (C++ ``mmdkit::EncodedText``)."""
from __future__ import annotations


class Text(str):
    """A name or other stored text as the file holds it. The object *is* the decoded text (a
    ``str``: compare, print, format, hash and slice it as one); ``raw`` is the bytes as stored, in
    the file's encoding (CP932 or GBK for PMD/VMD/VPD, UTF-16LE or UTF-8 for PMX; for fixed-size
    fields the whole field, garbage after the NUL included), which the writer writes back unchanged
    so that an unmodified file is byte-exact. ``raw`` is ``b""`` for text built in code.

    Objects take names by their text: assigning a ``str`` (or a Text) that differs from the current
    text drops the stored bytes, and the writer encodes the new text in the file's encoding."""

    def __new__(cls, text: str = "", raw: bytes = b""):
        self = super().__new__(cls, text)
        self._raw = bytes(raw)
        return self

    @property
    def text(self) -> str:
        """The decoded text as a plain ``str`` (UTF-8 in files mmdkit writes)."""
        return str.__str__(self)

    @property
    def raw(self) -> bytes:
        """The bytes as stored (``b""`` when the text was built in code)."""
        return self._raw

    def __setattr__(self, key, value):
        if key != "_raw" or "_raw" in self.__dict__:
            raise AttributeError("mmdkit.Text is immutable (assign a new name to the object instead)")
        super().__setattr__(key, value)

    def __repr__(self) -> str:
        return f"Text({str.__repr__(self)}, raw={self._raw!r})"

    def __reduce__(self):
        return (Text, (self.text, self._raw))
