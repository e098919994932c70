"""SHA-256 and BLAKE2b for the hook path, from the interpreter's built-in modules.

``hashlib`` loads OpenSSL when it is imported: about 12 M instructions, a third of a bare
interpreter start, for two digests that CPython's built-in modules give byte for byte. Where a
build leaves those out, ``hashlib``'s are used. ADR 0042.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING, read by mypy
if TYPE_CHECKING:  # the same functions, as hashlib declares them
    from hashlib import blake2b, sha256
else:
    try:
        from _sha2 import sha256  # Python 3.12+
    except ImportError:
        try:
            from _sha256 import sha256  # Python 3.11
        except ImportError:
            from hashlib import sha256
    try:
        from _blake2 import blake2b
    except ImportError:
        from hashlib import blake2b

__all__ = ["blake2b", "sha256"]
