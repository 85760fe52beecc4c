"""Running a benchmark on one processor: this process and every run it starts (they inherit
its affinity), so that neither of two programs compared in turn gets the faster or quieter
processor of a virtual machine by chance."""

import os
import sys


def pin_to(cpu, option="--cpu"):
    """Restricts this process to processor `cpu`; exits naming `option` if it cannot."""
    try:
        os.sched_setaffinity(0, {cpu})
    except (OSError, ValueError) as e:
        sys.exit(f"{option} {cpu}: cannot run on that processor ({e}); this machine has {os.cpu_count()}")
