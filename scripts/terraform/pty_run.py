#!/usr/bin/env python3
"""Runs a command with its standard output on a pseudo-terminal (raw: no CR added before LF,
80 columns) and copies what it wrote there, byte for byte, to this script's standard output.
Standard input is /dev/null, standard error is inherited. Exits with the command's status.

    python3 scripts/terraform/pty_run.py COMMAND [ARGS...]
"""

import fcntl
import os
import pty
import struct
import subprocess
import sys
import termios
import tty


def main():
    master, slave = pty.openpty()
    tty.setraw(slave)
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 80, 0, 0))
    proc = subprocess.Popen(sys.argv[1:], stdin=subprocess.DEVNULL, stdout=slave)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:  # EIO: the other side is closed
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    sys.stdout.buffer.write(b"".join(chunks))
    sys.stdout.buffer.flush()
    return proc.wait()


if __name__ == "__main__":
    sys.exit(main())
