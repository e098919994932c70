"""Tables for inline code analysis (python, node, perl, ruby)."""

from __future__ import annotations

from orchestrator_boundary.bash.model import EffectKind
from orchestrator_boundary.bash.readonly_data import names

W, D, C = EffectKind.WRITE, EffectKind.DELETE, EffectKind.CHANGE

PY_OPAQUE_CALLS = frozenset(
    {
        "exec",
        "eval",
        "compile",
        "__import__",
        "os.system",
        "os.popen",
        "os.fork",
        "importlib.import_module",
        "runpy.run_path",
        "runpy.run_module",
        "pty.spawn",
        "os.startfile",
        "code.interact",
        "builtins.exec",
        "builtins.eval",
        "globals",
        "setattr",
        "delattr",
        "vars",
        "locals",
        "breakpoint",
        # help('name') imports the module by name (a name.py in the working folder runs;
        # observed), help('modules') imports every module it finds, help() starts pydoc
        "help",
        "os.chdir",
        "os.fchdir",
        "os.chroot",
    }
)
# names that, called or not, let code reach callables by computed names
PY_INTROSPECTION = frozenset(
    {"getattr", "setattr", "delattr", "vars", "globals", "locals", "__import__", "eval", "exec"}
)
# modules that, passed around as values, hand out writing functions
PY_RISKY_MODULES = names(
    """os posix nt shutil subprocess io builtins pathlib sys importlib ctypes tempfile zipfile
    tarfile sqlite3 shelve dbm fileinput logging urllib urllib.request py_compile compileall
    runpy pty multiprocessing asyncio codecs gzip bz2 lzma"""
)
PY_FLAG_OPEN = frozenset({"dbm.open", "shelve.open"})
PY_INPLACE = frozenset({"fileinput.input", "fileinput.FileInput"})
# writers whose target is their second argument or a name of their own choosing
PY_WRITE_UNKNOWN = frozenset({"urllib.request.urlretrieve"})
# bytecode compilers: __pycache__ beside each source, a whole tree, or sys.path (py_compiled)
PY_COMPILES = names(
    "py_compile.compile compileall.compile_dir compileall.compile_file compileall.compile_path"
)
PY_SHUTIL_READS = frozenset(
    {
        "shutil.which",
        "shutil.disk_usage",
        "shutil.get_terminal_size",
        "shutil.get_archive_formats",
        "shutil.get_unpack_formats",
    }
)
PY_OPAQUE_PREFIXES = (
    "subprocess.",
    "os.exec",
    "os.spawn",
    "os.posix_spawn",
    "ctypes.",
    "multiprocessing.",
    "asyncio.create_subprocess",
    "shlex.",
)
PY_OPEN_LIKE = frozenset(
    {
        "open",
        "io.open",
        "codecs.open",
        "gzip.open",
        "bz2.open",
        "lzma.open",
        "tarfile.open",
        "zipfile.ZipFile",
        "tarfile.TarFile",
        "builtins.open",
        "wave.open",
        "io.FileIO",
    }
)
PY_DELETE_ARG0 = frozenset({"os.remove", "os.unlink", "os.rmdir", "os.removedirs", "shutil.rmtree"})
PY_MOVE = frozenset({"os.rename", "os.replace", "os.renames", "shutil.move"})
PY_WRITE_ARG1 = frozenset(
    {
        "shutil.copy",
        "shutil.copy2",
        "shutil.copyfile",
        "shutil.copytree",
        "shutil.copymode",
        "shutil.copystat",
        "shutil.unpack_archive",
        "os.link",
        "os.symlink",
    }
)
PY_WRITE_ARG0 = frozenset(
    {
        "os.mkdir",
        "os.makedirs",
        "os.mkfifo",
        "os.mknod",
        "os.truncate",
        "os.chmod",
        "os.chown",
        "os.lchown",
        "os.utime",
        "shutil.make_archive",
        "shutil.chown",
        "sqlite3.connect",
        "tempfile.mkstemp",
        "tempfile.mkdtemp",
        "tempfile.NamedTemporaryFile",
        "tempfile.TemporaryDirectory",
        "tempfile.TemporaryFile",
        "pathlib.Path.touch",
        "logging.FileHandler",
        "logging.basicConfig",
        "logging.handlers.RotatingFileHandler",
        "logging.handlers.TimedRotatingFileHandler",
        "logging.handlers.WatchedFileHandler",
    }
)
PY_PATH_METHODS = {
    "write_text": W,
    "write_bytes": W,
    "touch": W,
    "mkdir": W,
    "unlink": D,
    "rmdir": D,
    "rename": D,
    "replace": D,
    "symlink_to": C,
    "hardlink_to": C,
    "chmod": C,
    "lchmod": C,
    "open": W,
    "extractall": W,
    "extract": W,
}
PY_WRITE_METHODS = frozenset(
    {
        "to_csv",
        "to_json",
        "to_excel",
        "to_parquet",
        "to_pickle",
        "to_feather",
        "to_hdf",
        "to_html",
        "to_sql",
        "savefig",
        "save",
        "to_file",
        "write_to",
        "dump_to",
        "writestr",
    }
)

# node: last component of the called name -> (kind, index of the path argument)
JS_CALLS = {
    **{
        n: (W, 0)
        for n in (
            "writeFileSync",
            "writeFile",
            "appendFileSync",
            "appendFile",
            "createWriteStream",
            "WriteStream",  # fs.WriteStream('f'), with or without new, creates f (round C)
            "mkdirSync",
            "mkdir",
            "mkdtempSync",
            "mkdtemp",
            "truncateSync",
            "truncate",
            "outputFileSync",
            "outputFile",
            "writeJsonSync",
            "writeJson",
            "ensureDirSync",
            "ensureFileSync",
            "emptyDirSync",
            "writeTextFile",
            "writeTextFileSync",
            "mkdirp",
            "writeFileAtomic",
            "outputJsonSync",
        )
    },
    **{
        n: (D, 0)
        for n in (
            "unlinkSync",
            "unlink",
            "rmSync",
            "rm",
            "rmdirSync",
            "rmdir",
            "removeSync",
            "remove",
            "rimraf",
            "deleteSync",
        )
    },
    **{
        n: (W, 1)
        for n in (
            "copyFileSync",
            "copyFile",
            "cpSync",
            "cp",
            "copySync",
            "copy",
            "symlinkSync",
            "linkSync",
        )
    },
    **{
        n: (C, 0)
        for n in (
            "chmodSync",
            "chmod",
            "chownSync",
            "chown",
            "utimesSync",
            "utimes",
            "lchownSync",
            "lutimesSync",
            "lutimes",
            "lchmodSync",
            "lchmod",
            # on a descriptor: whatever file it was opened on (even read-only)
            "fchmodSync",
            "fchmod",
            "fchownSync",
            "fchown",
            "futimesSync",
            "futimes",
            "ftruncateSync",
            "ftruncate",
        )
    },
}
JS_MOVES = frozenset({"renameSync", "rename", "moveSync", "move"})
JS_OPEN = frozenset({"openSync", "open"})
JS_OPAQUE = frozenset(
    {
        "exec",
        "execSync",
        "spawn",
        "spawnSync",
        "execFile",
        "execFileSync",
        "fork",
        "eval",
        "Function",
        "child_process",
        "runInNewContext",
        "runInThisContext",
        "Command",
        "run",
        "$",
        # they write files or run code the call does not name: a heap snapshot, a diagnostic
        # report, a worker's code, a Unix socket, V8 flags
        "writeHeapSnapshot",
        "writeReport",
        "Worker",
        "listen",
        "setFlagsFromString",
    }
)
# node modules whose writers the tables name (`v8`, `worker_threads`, `net`, `inspector`, ...
# are not here: loading them is opaque)
NODE_BUILTINS = names("""fs path os util crypto url zlib stream events assert buffer
    readline process http https dns querystring string_decoder timers fs/promises path/posix
    path/win32 stream/promises timers/promises util/types""")

PERL_CALLS = {
    "unlink": (D, 0),
    "rmdir": (D, 0),
    "mkdir": (W, 0),
    "truncate": (W, 0),
    "chmod": (C, 1),
    "chown": (C, 2),
    "utime": (C, 2),
    "symlink": (C, 1),
    "link": (C, 1),
    "copy": (W, 1),
    "make_path": (W, 0),
    "mkpath": (W, 0),
    "remove_tree": (D, 0),
    "rmtree": (D, 0),
    "sysopen": (W, 1),
    "dbmopen": (W, 1),
    "tempfile": (W, 99),
    "tempdir": (W, 99),
}
PERL_MOVES = frozenset({"rename", "move"})
PERL_OPAQUE = frozenset(
    {"system", "exec", "qx", "fork", "eval", "do", "require", "syscall", "readpipe", "chdir"}
    | {"use", "bind", "dump", "mkfifo"}  # a Unix socket's file, a core file, a FIFO
)
# `use MODULE` that loads no code writing files by itself (the functions they export are known)
PERL_SAFE_MODULES = frozenset(
    {"strict", "warnings", "utf8", "feature", "integer", "constant", "File", "Cwd", "Data", "List"}
    | {"IO"}
    | {"Scalar", "JSON", "Getopt", "Time", "Encode"}
)
# $^I: in-place editing of the files <> reads, set from the code
PERL_OPAQUE_TEXT = (
    *("IO::Handle", "File::Temp", "FileHandle", "IPC::", "Socket", "IO::Pipe", "$^I"),
    "${^INPLACE",
)

RUBY_CALLS = {
    **{f"File.{n}": (W, 0) for n in ("write", "binwrite", "truncate")},
    **{f"IO.{n}": (W, 0) for n in ("write", "binwrite")},
    **{f"File.{n}": (D, 0) for n in ("delete", "unlink")},
    **{f"Dir.{n}": (D, 0) for n in ("delete", "rmdir", "unlink")},
    "Dir.mkdir": (W, 0),
    "File.chmod": (C, 1),
    "File.chown": (C, 2),
    "File.symlink": (C, 1),
    "File.link": (C, 1),
    "File.utime": (C, 2),
    **{
        f"FileUtils.{n}": (D, 0)
        for n in (
            "rm",
            "rm_f",
            "rm_r",
            "rm_rf",
            "rmdir",
            "remove",
            "remove_dir",
            "remove_file",
            "remove_entry",
            "rmtree",
        )
    },
    **{f"FileUtils.{n}": (W, 0) for n in ("mkdir", "mkdir_p", "makedirs", "mkpath", "touch")},
    **{
        f"FileUtils.{n}": (W, 1)
        for n in ("cp", "cp_r", "copy", "copy_file", "install", "ln", "ln_s", "ln_sf", "copy_entry")
    },
    **{f"FileUtils.{n}": (C, 1) for n in ("chmod", "chmod_R", "chown", "chown_R")},
}
RUBY_MOVES = frozenset({"File.rename", "FileUtils.mv", "FileUtils.move"})
# require "./x" runs x.rb (a library name is looked up in the load path, not the working
# folder); IO.read / readlines / foreach / binread and URI.open run a command given as "|cmd"
# (observed, ruby 3.1; attack round C)
RUBY_LOADS = frozenset({"require", "IO.read", "IO.readlines", "IO.foreach", "IO.binread"})
RUBY_LOADS_ALSO = frozenset({"URI.open"})
RUBY_OPEN = frozenset({"File.open", "File.new", "IO.open", "open", "Kernel.open"})
RUBY_OPAQUE = frozenset(
    {
        "system",
        "exec",
        "spawn",
        "eval",
        "instance_eval",
        "class_eval",
        "require_relative",
        "load",
        "fork",
        "syscall",
        "Open3",
        "IO.popen",
        "Process.spawn",
        "Kernel.system",
        "Kernel.exec",
    }
)
