"""The Python modules and module names inline code may use and still be read-only (an allow-list).

A block-list of writing calls misses what it does not name (`sys.modules['os'].system`,
`_io.FileIO`, `timeit.timeit("open(..)")`, `gzip.GzipFile`, `logging.config.dictConfig`,
`pickle.load`): inline Python is read-only only when every module it imports is listed here,
and every name it reaches in a module with writers is either listed or one the analysis models
(inline_python's tables). Anything else makes the code opaque (attack round A, part E).
"""

from __future__ import annotations

from orchestrator_boundary.bash.readonly_data import names

# modules with nothing that writes a file or runs code (their file arguments come from `open`)
PY_PURE = names(
    """json re math cmath statistics decimal fractions random string textwrap unicodedata difflib
    collections collections.abc itertools functools operator datetime time calendar zoneinfo
    enum dataclasses typing copy pprint reprlib heapq bisect array struct base64 binascii
    hashlib hmac secrets uuid html urllib urllib.parse ipaddress keyword fnmatch glob stat errno
    numbers abc platform locale getpass csv configparser tomllib textwrap shlex zlib colorsys
    graphlib quopri unicodedata sre_constants string token os.path posixpath ntpath
    genericpath fractions select signal threading queue weakref gc warnings traceback
    linecache tokenize ast dis sysconfig contextvars bisect toml tomli tomli_w dateutil
    jsonschema requests httpx"""
)

# modules with writers the analysis models: the names that are harmless or modelled
PY_NAMES: dict[str, frozenset[str]] = {
    "sys": names(
        """argv stdin stdout stderr exit version version_info platform executable maxsize
        byteorder getsizeof getrecursionlimit setrecursionlimit implementation float_info
        int_info hash_info getdefaultencoding getfilesystemencoding stdlib_module_names
        builtin_module_names flags prefix base_prefix exec_prefix base_exec_prefix exc_info
        exception api_version hexversion copyright maxunicode orig_argv platlibdir
        getrefcount getswitchinterval is_finalizing thread_info warnoptions
        dont_write_bytecode float_repr_style getallocatedblocks"""
    ),
    "os": names(
        """getcwd getcwdb listdir scandir walk fwalk stat lstat fstat path environ environb
        getenv getenvb getpid getppid getuid geteuid getgid getegid getgroups getlogin uname
        cpu_count process_cpu_count get_terminal_size terminal_size fspath fsencode fsdecode
        sep altsep extsep pathsep linesep devnull name curdir pardir defpath access readlink
        isatty get_exec_path strerror urandom times getloadavg sysconf confstr stat_result
        DirEntry PathLike F_OK R_OK W_OK X_OK O_RDONLY SEEK_SET SEEK_CUR SEEK_END read close
        get_inheritable get_blocking getpgrp getsid getpriority sched_getaffinity statvfs
        device_encoding major minor listxattr getxattr error supports_fd supports_dir_fd
        supports_follow_symlinks supports_effective_ids WEXITSTATUS WIFEXITED getrandom"""
    ),
    "pathlib": names("Path PurePath PosixPath PurePosixPath WindowsPath PureWindowsPath"),
    "shutil": names(""),  # every other shutil name is a write (inline_python)
    "io": names(
        """StringIO BytesIO TextIOWrapper BufferedReader SEEK_SET SEEK_CUR SEEK_END
        UnsupportedOperation DEFAULT_BUFFER_SIZE open_code text_encoding"""
    ),
    "gzip": names("compress decompress BadGzipFile"),
    "bz2": names("compress decompress BZ2Compressor BZ2Decompressor"),
    "lzma": names("compress decompress LZMACompressor LZMADecompressor LZMAError FORMAT_XZ"),
    "zipfile": names(
        "is_zipfile BadZipFile ZipInfo ZIP_STORED ZIP_DEFLATED ZIP_BZIP2 ZIP_LZMA LargeZipFile"
    ),
    "tarfile": names("is_tarfile TarInfo ReadError TarError CompressionError"),
    "dbm": names("whichdb error"),
    "shelve": names(""),  # shelve.open is modelled; Shelf classes open files of their own
    "py_compile": names("PyCompileError PycInvalidationMode"),  # compile is modelled
    "compileall": names(""),  # compile_dir / compile_file / compile_path are modelled
    "sqlite3": names("Row Error OperationalError IntegrityError version sqlite_version"),
    "tempfile": names("gettempdir gettempdirb gettempprefix tempdir mktemp"),
    "codecs": names(
        """encode decode lookup getencoder getdecoder getreader getwriter BOM BOM_UTF8
        BOM_UTF16 BOM_UTF16_LE BOM_UTF16_BE BOM_UTF32 iterdecode iterencode"""
    ),
    "fileinput": names("lineno filename filelineno isfirstline isstdin close nextfile"),
    "logging": names(
        """getLogger info debug warning warn error critical exception log Logger StreamHandler
        Formatter DEBUG INFO WARNING WARN ERROR CRITICAL FATAL NOTSET disable captureWarnings
        LogRecord Filter Handler NullHandler getLevelName addLevelName root lastResort
        getLevelNamesMapping handlers"""
    ),
    "logging.handlers": names(""),
    "urllib.request": names("urlopen Request HTTPError URLError"),
    "subprocess": names(""),  # every name is opaque (inline_data.PY_OPAQUE_PREFIXES)
    "yaml": names(
        """safe_load safe_load_all safe_dump safe_dump_all dump dump_all YAMLError SafeLoader
        CSafeLoader BaseLoader SafeDumper Dumper __version__"""
    ),
}

KNOWN_MODULES = PY_PURE | frozenset(PY_NAMES)


def module_of(dotted: str) -> tuple[str, str] | None:
    """The longest listed module ``dotted`` starts with, and the name after it ("" for none)."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        module = ".".join(parts[:cut])
        if module in KNOWN_MODULES:
            return module, parts[cut] if cut < len(parts) else ""
    return None


def known_module(name: str) -> bool:
    """Whether an imported module (``a.b``) is listed, itself or as a part of a listed one."""
    return name in KNOWN_MODULES or any(name.startswith(m + ".") for m in PY_PURE)
