"""`python -m tracer.cli`: the same as the `loopscope` command."""

import sys

from . import main

sys.exit(main())
