"""Attachments on disk: safe file names (:func:`safe_filename`, :func:`unique_names`) and a
writer that never leaves its folder (:func:`write_inside`).

A file name in mail is data from a stranger: ``../../etc/passwd``, ``/etc/passwd``, ``CON``,
``a\\x00b``, a name of 10 000 characters, ``\\u202Eexe.txt``, two parts both called
``image001.png``. The rules (M33), applied in this order:

1. only the last component counts: everything up to the last ``/`` or ``\\`` goes
   (``../../etc/passwd`` is ``passwd``), as mail readers save it;
2. characters that are not allowed or not safe in a file name on common systems become ``_``:
   C0 and C1 controls and DEL (NUL included), ``< > : " | ? *`` (not allowed on Windows), lone
   surrogates (bytes of the name that could not be decoded), and the bidirectional controls
   U+202A-U+202E, U+2066-U+2069 (they make ``gpj.exe`` look like ``exe.jpg``);
3. spaces and dots at either end go (Windows drops them at the end; a leading dot hides the
   file and makes ``.`` and ``..``);
4. an empty name becomes the part's default (``part-<path><extension of its media type>``);
5. a Windows device name (``CON``, ``PRN``, ``AUX``, ``NUL``, ``COM0``-``COM9``, ``LPT0``-``LPT9``
   and the superscript-digit forms), with any extension, any case, gets a ``_`` in front;
6. the name is cut to :data:`MAX_NAME_BYTES` bytes of UTF-8, at a character boundary, keeping
   an extension of up to 16 characters;
7. within one folder, names that differ only in case are collisions (case-insensitive file
   systems): the second becomes ``name (2).ext``, the third ``name (3).ext``, skipping any name
   already taken.
"""

from __future__ import annotations

import errno
import os
import re
import stat

__all__ = ["MAX_NAME_BYTES", "safe_filename", "unique_names", "write_inside"]

MAX_NAME_BYTES = 200
"""Longest file name written, in bytes of UTF-8: below the 255 bytes of ext4, XFS, APFS and NTFS
(255 UTF-16 units), leaving room for a collision number ``" (99999)"``."""

_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f<>:\"|?*\ud800-\udfff\u202a-\u202e\u2066-\u2069]")
_DEVICE = re.compile(r"(?:CON|PRN|AUX|NUL|COM[0-9\u00b9\u00b2\u00b3]|LPT[0-9\u00b9\u00b2\u00b3])(?:\..*)?",
                     re.I | re.S)
_MAX_EXTENSION = 16


def safe_filename(name: str | None, default: str) -> str:
    """Return a file name made safe by rules 1-6 of the module docstring.

    :param name: the decoded file name from the message (``str``), or ``None``.
    :param default: the name to use when nothing is left (itself made safe; must not be empty).
    :returns: a non-empty name without a path separator, of at most :data:`MAX_NAME_BYTES`
        bytes of UTF-8.
    :raises TypeError: ``name`` is not a ``str`` or ``None``, ``default`` not a ``str``.
    :raises ValueError: ``default`` leaves nothing either.

    >>> safe_filename("../../etc/passwd", "part-1")
    'passwd'
    >>> safe_filename("CON", "part-1"), safe_filename("a\\x00b", "part-1")
    ('_CON', 'a_b')
    """
    if name is not None and not isinstance(name, str):
        raise TypeError(f"name must be a str or None, not {type(name).__name__}")
    if not isinstance(default, str):
        raise TypeError(f"default must be a str, not {type(default).__name__}")
    out = _clean(name or "")
    if not out:
        out = _clean(default)
        if not out:
            raise ValueError(f"default leaves no file name: {default!r}")
    if _DEVICE.fullmatch(out):
        out = "_" + out
    return _cut(out, MAX_NAME_BYTES)


def _clean(name: str) -> str:
    name = name[max(name.rfind("/"), name.rfind("\\")) + 1:]
    return _UNSAFE.sub("_", name).strip(" .")


def _cut(name: str, limit: int) -> str:
    """Cut ``name`` to ``limit`` bytes of UTF-8, keeping a short extension."""
    if len(name.encode("utf-8")) <= limit:
        return name
    dot = name.rfind(".")
    ext = name[dot:] if 0 < dot and len(name) - dot <= _MAX_EXTENSION else ""
    stem = name[:len(name) - len(ext)]
    room = limit - len(ext.encode("utf-8"))
    cut = stem.encode("utf-8")[:room].decode("utf-8", "ignore").rstrip(" .")
    return (cut or "_") + ext


def unique_names(names: list[str]) -> list[str]:
    """Number the names that collide (rule 7): ``["a.txt", "A.txt"]`` gives
    ``["a.txt", "A (2).txt"]``.

    :param names: safe names (from :func:`safe_filename`), in the order of the parts.
    :returns: as many names, pairwise different ignoring case, each of at most
        :data:`MAX_NAME_BYTES` + 8 bytes.
    """
    taken: set[str] = set()
    out = []
    for name in names:
        if name.casefold() in taken:
            dot = name.rfind(".")
            stem, ext = (name[:dot], name[dot:]) if dot > 0 else (name, "")
            n = 2
            while f"{stem} ({n}){ext}".casefold() in taken:
                n += 1
            name = f"{stem} ({n}){ext}"
        taken.add(name.casefold())
        out.append(name)
    return out


_DIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0)
_FILE_FLAGS = (os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0)
               | getattr(os, "O_BINARY", 0))


def write_inside(root: str, relpath: str, data: bytes) -> str:
    """Write ``data`` to ``root/relpath`` without ever writing outside ``root``.

    ``relpath`` is ``folder/name`` as a record's ``saved_path`` gives it. Each component must be
    a plain name (no ``..``, no separator, not empty); the folder is created; a component that
    exists as a symbolic link is refused (a link planted in the folder cannot lead the write
    out), and so is a folder whose real path is not directly inside the real path of ``root``.
    Where the system allows, the folder is opened without following links and the file is
    created relative to it (no race between the check and the write). An existing regular file
    of that name is replaced.

    :param root: the attachments folder (created when missing; it may itself be a link).
    :param relpath: ``"<folder>/<file name>"``, ``/`` separated.
    :param data: the bytes to write.
    :returns: the path written (``root`` joined with ``relpath``).
    :raises OSError: the folder or file cannot be created, or a check failed (``EPERM`` with a
        message naming the component).
    :raises ValueError: ``relpath`` is not two plain components.
    """
    pieces = relpath.split("/")
    if len(pieces) != 2 or any(p in ("", ".", "..") or "\\" in p or "\0" in p for p in pieces):
        raise ValueError(f"relpath must be 'folder/name' of plain names, not {relpath!r}")
    folder, name = pieces
    os.makedirs(root, exist_ok=True)
    real_root = os.path.realpath(root)
    target_dir = os.path.join(real_root, folder)
    try:
        os.mkdir(target_dir)
    except FileExistsError:
        pass
    st = os.lstat(target_dir)
    if stat.S_ISLNK(st.st_mode) or not stat.S_ISDIR(st.st_mode) \
            or os.path.dirname(os.path.realpath(target_dir)) != real_root:
        raise OSError(errno.EPERM, "refused: not a folder inside the attachments folder", target_dir)
    path = os.path.join(target_dir, name)
    if os.open in os.supports_dir_fd:
        dir_fd = os.open(target_dir, _DIR_FLAGS)
        try:
            fd = os.open(name, _FILE_FLAGS, 0o644, dir_fd=dir_fd)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise OSError(errno.EPERM, "refused: a symbolic link", path) from None
            raise
        finally:
            os.close(dir_fd)
    else:  # pragma: no cover - Windows: no dir_fd
        if os.path.islink(path):
            raise OSError(errno.EPERM, "refused: a symbolic link", path)
        fd = os.open(path, _FILE_FLAGS, 0o644)
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    return path
