"""Running a benchmark on one processor (scripts/pin.py): the run a script starts inherits the
processor, and a processor the machine lacks is refused with the option named."""

import os
import subprocess
import sys

import pytest

from scripts.pin import pin_to


def test_a_run_started_after_pinning_runs_on_that_processor_alone():
    before = os.sched_getaffinity(0)
    cpu = min(before)
    try:
        pin_to(cpu)
        child = subprocess.run([sys.executable, "-c", "import os; print(sorted(os.sched_getaffinity(0)))"],
                               capture_output=True, text=True, check=True)
        assert child.stdout.strip() == f"[{cpu}]"
    finally:
        os.sched_setaffinity(0, before)


def test_a_processor_the_machine_lacks_is_refused_by_name():
    with pytest.raises(SystemExit) as stop:
        pin_to(10_000)
    assert str(stop.value).startswith("--cpu 10000: cannot run on that processor")
    assert f"this machine has {os.cpu_count()}" in str(stop.value)
